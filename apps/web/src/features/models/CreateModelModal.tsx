import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import {
  composeDisplayName,
  composeModelName,
  displayName,
  type ModelSources,
  type ModelSummary,
  type NewModelError,
  validateNewModel,
} from './modelNames.ts';
import { modelsApi } from './modelsApi.ts';

/** 'Create new model': a copy of a listed or catalogue model's own settings under a name of its own. */
export function CreateModelModal({
  sources,
  existing,
  onCreated,
  onClose,
}: {
  sources: ModelSources;
  /** Every model name in use, so a taken name is refused before asking the server. */
  existing: readonly ModelSummary[];
  onCreated: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState<string | null>(null);
  const [custom, setCustom] = useState('');
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const sourceModel = [...sources.onSystem, ...sources.catalogue].find((m) => m.name === source);
  const option = (m: ModelSummary) => ({ value: m.name, label: displayName(m) });
  // Empty groups are left out: an empty listbox is an accessibility failure and tells the installer nothing.
  const groups = [
    { group: t('models.create.onSystem'), items: sources.onSystem.map(option) },
    { group: t('models.create.catalogue'), items: sources.catalogue.map(option) },
  ].filter((g) => g.items.length > 0);
  const errors = validateNewModel(source, custom, existing);
  const message = (error: NewModelError | undefined) => (error ? t(`models.create.errors.${error}`) : undefined);

  const create = useMutation({
    mutationFn: async () => {
      if (!sourceModel) throw new Error('no source');
      let variables: Record<string, string>;
      try {
        variables = (await modelsApi.get(sourceModel.name)).variables;
      } catch (error) {
        throw { reading: true, error };
      }
      const name = composeModelName(sourceModel.name, custom);
      await modelsApi.create({ name, display_name: composeDisplayName(sourceModel, custom), variables });
      return name;
    },
    onSuccess: (name) => {
      notifySuccess(t('models.create.created', { name: composeDisplayName(sourceModel as ModelSummary, custom) }));
      onCreated(name);
    },
    onError: (failure) => {
      const wrapped = failure as { reading?: boolean; error?: unknown };
      if (wrapped.reading) {
        notifyError(t('models.create.sourceFailed'), wrapped.error);
      } else if (failure instanceof ApiError && failure.status === 409) {
        setServerError(t('models.create.errors.exists'));
      } else {
        notifyError(t('models.create.failed'), failure);
      }
    },
  });

  const submit = () => {
    setTried(true);
    setServerError(null);
    if (errors.source || errors.custom) return;
    create.mutate();
  };

  return (
    <Modal opened onClose={onClose} title={t('models.create.title')}>
      <Stack gap="md">
        {groups.length === 0 ? (
          <Text size="sm" data-testid="no-model-sources">
            {t('models.create.noSources')}
          </Text>
        ) : (
          <Select
            label={t('models.create.source')}
            description={t('models.create.sourceHelp')}
            placeholder={t('models.create.sourcePlaceholder')}
            data={groups}
            value={source}
            onChange={(value) => {
              setSource(value);
              setServerError(null);
            }}
            searchable
            maxDropdownHeight={7 * 36}
            // The catalogue scrolls: its viewport takes focus so the list can be scrolled from the keyboard too,
            // and is a group of the listbox (a bare focusable element may not sit among a listbox's options).
            scrollAreaProps={{
              viewportProps: { tabIndex: 0, role: 'group', 'aria-label': t('models.create.source') },
            }}
            nothingFoundMessage={t('list.noResults')}
            error={tried ? message(errors.source) : undefined}
            withAsterisk
          />
        )}
        {sourceModel && (
          <TextInput
            label={t('models.create.name')}
            leftSection={
              <Text size="sm" c="dimmed" pl="xs" style={{ whiteSpace: 'nowrap' }}>
                {`${displayName(sourceModel)} -`}
              </Text>
            }
            leftSectionWidth={Math.min(260, 24 + displayName(sourceModel).length * 7.5)}
            value={custom}
            onChange={(e) => {
              setCustom(e.currentTarget.value);
              setServerError(null);
            }}
            error={serverError ?? (tried ? message(errors.custom) : undefined)}
            description={
              custom.trim()
                ? t('models.create.nameWillBe', { name: composeModelName(sourceModel.name, custom) })
                : undefined
            }
            withAsterisk
            data-autofocus
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={create.isPending}>
            {t('models.create.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
