import { cardTemplateName } from '@centralino/contract';
import { Alert, Button, ColorSwatch, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { cardsApi, refreshLists, type Template } from './cardsApi.ts';
import {
  colorOf,
  DEFAULT_TEMPLATE_HTML,
  duplicateNameError,
  fromBase64,
  isTemplateColor,
  MANTINE_COLOR,
  sampleQuery,
  sampleRows,
  TEMPLATE_COLORS,
  type TemplateColor,
  templateValue,
  toBase64,
  withColor,
} from './cardsLogic.ts';
import { PreviewResult, previewErrorText } from './PreviewResult.tsx';

function ColorSelect({
  value,
  onChange,
}: {
  value: TemplateColor | null;
  onChange: (c: TemplateColor | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('cards.templates.modal.color')}
      placeholder={t('cards.templates.noColor')}
      clearable
      data={TEMPLATE_COLORS.map((c) => ({ value: c, label: t(`cards.colors.${c}`) }))}
      value={value}
      onChange={(v) => onChange(isTemplateColor(v) ? v : null)}
      leftSection={value ? <ColorSwatch size={14} color={`var(--mantine-color-${MANTINE_COLOR[value]}-6)`} /> : null}
      renderOption={({ option }) => (
        <Group gap="xs">
          <ColorSwatch
            size={14}
            color={`var(--mantine-color-${MANTINE_COLOR[option.value as TemplateColor]}-6)`}
            aria-hidden
          />
          {option.label}
        </Group>
      )}
    />
  );
}

/**
 * Creating or modifying a template: its text in a monospace editor, its colour, and a live preview rendered by
 * the server with sample rows (a query of literals on the built-in source; nothing of the template runs in the
 * browser, and the result is shown in a sandboxed frame). Template errors come back with their line.
 */
export function TemplateModal({
  template,
  sampleSourceId,
  onClose,
  onCreated,
}: {
  template?: Template;
  /** The built-in source the sample rows are selected on; no live preview without one. */
  sampleSourceId?: string;
  onClose: () => void;
  /** After a new template is saved, with its reference (`name_custom`): the wizard order goes on. */
  onCreated?: (ref: string) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const modifying = template !== undefined;
  const [name, setName] = useState(template?.name ?? '');
  const [html, setHtml] = useState(() => (template ? fromBase64(template.html) : DEFAULT_TEMPLATE_HTML));
  const [debounced] = useDebouncedValue(html, 500);
  const color = colorOf(html);
  const sample = template && !template.custom ? template.name : 'custom';
  const preview = useQuery({
    queryKey: ['cards', 'template-preview', sampleSourceId, sample, debounced],
    queryFn: () =>
      cardsApi.preview({
        dbconn_id: sampleSourceId ?? '',
        html: toBase64(debounced),
        query: toBase64(sampleQuery(sampleRows(sample))),
      }),
    enabled: sampleSourceId !== undefined && debounced.trim() !== '',
    retry: false,
    staleTime: Infinity,
  });
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        name: modifying ? template.name : name.trim(),
        custom: template?.custom ?? true,
        html: toBase64(html),
      };
      if (modifying) await cardsApi.updateTemplate(templateValue(template), body);
      else await cardsApi.createTemplate(body);
    },
    onSuccess: async () => {
      notifySuccess(t('cards.templates.saved'));
      void refreshLists(queryClient);
      onClose();
      if (!modifying) onCreated?.(`${cardTemplateName(name)}_custom`);
    },
    // The modal stays open with what was typed (as the phonebook's does): the notification says why.
    onError: (e) => notifyError(t('cards.templates.notSaved'), e),
  });
  const convert = useMutation({
    mutationFn: () => cardsApi.convertTemplate(toBase64(html)),
    onSuccess: (converted) => setHtml(fromBase64(converted.html)),
  });
  const valid = html.trim() !== '' && (modifying || name.trim() !== '');
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={modifying ? t('cards.templates.modal.modify', { name: template.name }) : t('cards.templates.modal.create')}
    >
      <Stack gap="sm">
        {!modifying && (
          <TextInput
            label={t('cards.templates.modal.name')}
            description={t('cards.templates.modal.nameHelp')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
        )}
        <ColorSelect value={color} onChange={(c) => setHtml((h) => withColor(h, c))} />
        <Textarea
          label={t('cards.templates.modal.html')}
          description={t('cards.templates.modal.htmlHelp')}
          required
          autosize
          minRows={8}
          maxRows={20}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          value={html}
          onChange={(e) => setHtml(e.currentTarget.value)}
          error={html.trim() === '' ? t('cards.templates.modal.htmlRequired') : undefined}
        />
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            disabled={html.trim() === ''}
            loading={convert.isPending}
            onClick={() => convert.mutate()}
          >
            {t('cards.templates.modal.convert')}
          </Button>
          <Text size="xs" c="dimmed">
            {t('cards.templates.modal.convertHelp')}
          </Text>
        </Group>
        {convert.isError && (
          <Alert color="red" title={t('cards.templates.modal.convertFailed')} data-testid="convert-error">
            {previewErrorText(convert.error)}
          </Alert>
        )}
        {sampleSourceId === undefined ? (
          <Text size="sm" c="dimmed">
            {t('cards.templates.modal.noPreview')}
          </Text>
        ) : (
          <Stack gap={4} aria-live="polite" aria-busy={preview.isFetching}>
            <Text size="sm" c="dimmed">
              {t('cards.templates.modal.sample')}
            </Text>
            <PreviewResult preview={preview.data} error={preview.error ?? undefined} showRows={false} />
          </Stack>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!valid} loading={save.isPending} onClick={() => save.mutate()}>
            {t('cards.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Duplicating a template under a new name (required, different from the old one), saved as custom. */
export function DuplicateTemplateModal({ template, onClose }: { template: Template; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const problem = duplicateNameError(name, template.name);
  const save = useMutation({
    mutationFn: () => cardsApi.createTemplate({ name: name.trim(), custom: true, html: template.html }),
    onSuccess: async () => {
      notifySuccess(t('cards.templates.saved'));
      void refreshLists(queryClient);
      onClose();
    },
    // The modal stays open with what was typed (as the phonebook's does): the notification says why.
    onError: (e) => notifyError(t('cards.templates.notSaved'), e),
  });
  return (
    <Modal opened onClose={onClose} title={t('cards.templates.duplicate.title', { name: template.name })}>
      <Stack gap="sm">
        <TextInput
          label={t('cards.templates.duplicate.name')}
          required
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setTouched(true);
          }}
          error={touched && problem ? t(`cards.templates.duplicate.${problem}`) : undefined}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={problem !== null} loading={save.isPending} onClick={() => save.mutate()}>
            {t('cards.templates.duplicate.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
