import { Accordion, Alert, Button, Fieldset, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyKind } from './capabilities.ts';
import { type Option, SelectField, TextField, useEditor } from './fields.tsx';
import { initialKeys, keyIndex, keyVariables, moreKeys } from './keyPaging.ts';
import { listValue } from './modelState.ts';
import { UserSearchField } from './UserSearchField.tsx';

const TITLE_KEYS: Record<KeyKind, string> = {
  softkey: 'models.keys.softkey',
  linekey: 'models.keys.linekey',
  expkey: 'models.keys.expkey',
};

function KeyRow({ kind, index, number, types }: { kind: KeyKind; index: number; number: number; types: Option[] }) {
  const { t } = useTranslation();
  const { layers, edits } = useEditor();
  const vars = keyVariables(kind, index);
  const title = t(TITLE_KEYS[kind], { n: number });
  const isBlf = listValue(vars.type, layers, edits) === 'blf';
  return (
    <Fieldset legend={title} data-testid={`key-${kind}-${index}`} p="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <SelectField
          variable={vars.type}
          label={t('models.keys.typeLabel')}
          ariaLabel={t('models.keys.type', { key: title })}
          options={types}
        />
        {isBlf ? (
          <UserSearchField
            variable={vars.value}
            labelVariable={vars.label}
            label={t('models.keys.valueLabel')}
            ariaLabel={t('models.keys.value', { key: title })}
          />
        ) : (
          <TextField
            variable={vars.value}
            label={t('models.keys.valueLabel')}
            ariaLabel={t('models.keys.value', { key: title })}
          />
        )}
        <TextField
          variable={vars.label}
          label={t('models.keys.labelLabel')}
          ariaLabel={t('models.keys.label', { key: title })}
        />
      </SimpleGrid>
    </Fieldset>
  );
}

/** The keys of a section (or of one expansion module): 4 at first, 4 more on each 'View more'. */
export function KeyList({
  kind,
  count,
  types,
  module = 1,
}: {
  kind: KeyKind;
  count: number;
  types: readonly string[];
  module?: number;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(() => initialKeys(count));
  const options = types.map((type) => ({ value: type, label: t(`models.keyTypes.${type}`, { defaultValue: type }) }));
  return (
    <Stack gap="sm">
      {Array.from({ length: shown }, (_, i) => {
        const index = keyIndex(kind, i + 1, module, count);
        return <KeyRow key={index} kind={kind} index={index} number={i + 1} types={options} />;
      })}
      {shown < count && (
        <Button variant="subtle" onClick={() => setShown((n) => moreKeys(n, count))}>
          {t('models.viewMore')}
        </Button>
      )}
    </Stack>
  );
}

function useHideFlag(key: string): [boolean, () => void] {
  const [hidden, setHidden] = useState(() => localStorage.getItem(key) === 'true');
  return [
    hidden,
    () => {
      localStorage.setItem(key, 'true');
      setHidden(true);
    },
  ];
}

/** Users may change their own line keys from the CTI application: say so where line keys are edited. */
export function LineKeysInfo() {
  const { t } = useTranslation();
  const [hidden, hide] = useHideFlag('lineKeysModelsInfoMsgHide');
  if (hidden) return null;
  return (
    <Alert color="blue" withCloseButton onClose={hide} closeButtonLabel={t('common.close')}>
      {t('models.lineKeysInfo')}
    </Alert>
  );
}

export function EditorInfo() {
  const { t } = useTranslation();
  const [hidden, hide] = useHideFlag('modelsInfoMsgHide');
  if (hidden) return null;
  return (
    <Alert color="blue" withCloseButton onClose={hide} closeButtonLabel={t('common.close')}>
      {t('models.editorInfo')}
    </Alert>
  );
}

/** Expansion modules, each its own collapsible list of keys numbered across modules. */
export function ExpansionModules({
  modules,
  keysPerModule,
  types,
}: {
  modules: number;
  keysPerModule: number;
  types: readonly string[];
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<string | null>(null);
  return (
    <Accordion variant="contained" value={opened} onChange={setOpened}>
      {Array.from({ length: modules }, (_, i) => {
        const module = i + 1;
        return (
          <Accordion.Item key={module} value={String(module)}>
            <Accordion.Control>{t('models.module', { n: module })}</Accordion.Control>
            <Accordion.Panel>
              {opened === String(module) && (
                <KeyList kind="expkey" count={keysPerModule} types={types} module={module} />
              )}
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
