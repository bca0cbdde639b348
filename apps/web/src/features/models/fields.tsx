import { Button, Group, PasswordInput, Select, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { FILE_VARIABLES, type FileVariable } from '../phones/FileUploadModal.tsx';
import { phonesApi } from '../phones/phonesApi.ts';
import { withCurrent } from './capabilities.ts';
import {
  type Edits,
  type Inherited,
  inheritedOption,
  inheritedValue,
  isChanged,
  listValue,
  type ModelLayers,
  textValue,
} from './modelState.ts';

/** Variables that pick an uploaded file. */
export type UploadVariable = FileVariable;

export interface EditorState {
  layers: ModelLayers;
  edits: Edits;
  /** `list` fields show inherited values as their value, `text` fields as their placeholder. */
  set: (key: string, value: string, kind: 'list' | 'text') => void;
  /** Opens the file-upload dialog of a file variable; absent while no such dialog is available. */
  onUpload?: (variable: UploadVariable) => void;
}

export const EditorContext = createContext<EditorState | null>(null);

export function useEditor(): EditorState {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('model editor fields outside a model editor');
  return editor;
}

export interface Option {
  value: string;
  label: string;
}

/** Options above this many get a search box (spec §9). */
const SEARCHABLE_FROM = 11;

/** Field label with the '(changed)' mark of an unsaved value. */
export function FieldLabel({ label, variable }: { label: string; variable: string }) {
  const { t } = useTranslation();
  const { layers, edits } = useEditor();
  if (!isChanged(variable, layers, edits)) return <>{label}</>;
  return (
    <>
      {label}{' '}
      <Text span c="var(--mantine-color-orange-light-color)" fw={600} inherit>
        {t('models.changed')}
      </Text>
    </>
  );
}

function useInheritedText() {
  const { t } = useTranslation();
  return (inherited: Inherited, fallback: string): string => {
    switch (inherited.source) {
      case 'default':
        return t('models.defaultValue', { value: inherited.value });
      case 'model':
        return t('models.modelValue', { value: inherited.value, model: inherited.modelName });
      case 'hostname':
        return inherited.value;
      case 'none':
        return fallback;
    }
  };
}

/** Select of fixed or generated options, with '-' for 'not set here' and the inherited option marked. */
export function SelectField({
  variable,
  label,
  options,
  disabled,
  big,
  nothingFound,
  ariaLabel,
}: {
  variable: string;
  label: string;
  ariaLabel?: string;
  options: readonly Option[];
  disabled?: boolean;
  /** Hundreds of options (time zones): only some are rendered at a time. */
  big?: boolean;
  nothingFound?: string;
}) {
  const { t } = useTranslation();
  const { layers, edits, set } = useEditor();
  const inheritedText = useInheritedText();
  const value = listValue(variable, layers, edits);
  const inherited = inheritedOption(variable, layers);
  const known = new Map(options.map((o) => [o.value, o.label]));
  const data = [
    { value: 'null', label: '-' },
    ...withCurrent(
      options.map((o) => o.value),
      value,
    ).map((v) => {
      const text = known.get(v) ?? v;
      const suffixed =
        inherited.source !== 'none' && inherited.value === v
          ? inheritedText({ ...inherited, value: text }, text)
          : text;
      return { value: v, label: suffixed };
    }),
  ];
  return (
    <Select
      label={<FieldLabel label={label} variable={variable} />}
      aria-label={ariaLabel ?? label}
      data={data}
      value={value === '' ? 'null' : value}
      onChange={(next) => set(variable, next === null || next === 'null' ? '' : next, 'list')}
      searchable={data.length > SEARCHABLE_FROM}
      limit={big ? 60 : undefined}
      nothingFoundMessage={nothingFound ?? t('list.noResults')}
      allowDeselect={false}
      disabled={disabled}
      data-variable={variable}
    />
  );
}

export function TextField({
  variable,
  label,
  time,
  disabled,
  error,
  ariaLabel,
}: {
  variable: string;
  label: string;
  ariaLabel?: string;
  /** HH:MM values. */
  time?: boolean;
  disabled?: boolean;
  error?: ReactNode;
}) {
  const { layers, edits, set } = useEditor();
  const inheritedText = useInheritedText();
  return (
    <TextInput
      label={<FieldLabel label={label} variable={variable} />}
      aria-label={ariaLabel ?? label}
      value={textValue(variable, layers, edits)}
      placeholder={inheritedText(inheritedValue(variable, layers), time ? 'HH:MM' : '-')}
      onChange={(e) => set(variable, e.currentTarget.value, 'text')}
      disabled={disabled}
      error={error}
      data-variable={variable}
    />
  );
}

export function PasswordField({ variable, label, disabled }: { variable: string; label: string; disabled?: boolean }) {
  const { layers, edits, set } = useEditor();
  const inheritedText = useInheritedText();
  const inherited = inheritedValue(variable, layers);
  return (
    <PasswordInput
      label={<FieldLabel label={label} variable={variable} />}
      aria-label={label}
      value={textValue(variable, layers, edits)}
      // The inherited secret itself stays hidden.
      placeholder={inherited.source === 'none' ? '-' : inheritedText({ ...inherited, value: '••••••' }, '-')}
      onChange={(e) => set(variable, e.currentTarget.value, 'text')}
      disabled={disabled}
      data-variable={variable}
    />
  );
}

/** Choice among the uploaded files of a collection, with the button that opens the upload dialog. */
export function UploadField({
  variable,
  label,
  disabled,
}: {
  variable: UploadVariable;
  label: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { onUpload } = useEditor();
  const collection = FILE_VARIABLES[variable];
  // Same cache entry as the upload dialog, so a file uploaded there is offered here at once.
  const files = useQuery({ queryKey: ['phone-files', collection], queryFn: () => phonesApi.files(collection) });
  const options = (files.data ?? []).map((file) => ({ value: file.name, label: file.name }));
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <div style={{ flex: 1 }}>
        <SelectField
          variable={variable}
          label={label}
          options={options}
          disabled={disabled}
          nothingFound={t('models.noFiles')}
        />
        {files.data && files.data.length === 0 && (
          <Text size="xs" c="dimmed" mt={4}>
            {t('models.noFiles')}
          </Text>
        )}
      </div>
      {onUpload && (
        <Button
          variant="default"
          leftSection={<IconUpload size={16} />}
          disabled={disabled}
          onClick={() => onUpload(variable)}
          aria-label={t('models.uploadFor', { field: label })}
        >
          {t('models.upload')}
        </Button>
      )}
    </Group>
  );
}
