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
  type ModelSummary,
  type NewModelError,
  validateNewModel,
} from './modelNames.ts';
import { modelsApi } from './modelsApi.ts';

/** 'Create new model': a copy of a listed model's own settings under a name of its own. */
export function CreateModelModal({
  sources,
  existing,
  onCreated,
  onClose,
}: {
  sources: readonly ModelSummary[];
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
  const sourceModel = sources.find((m) => m.name === source);
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
        {sources.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="no-model-sources">
            {t('models.create.noSources')}
          </Text>
        )}
        <Select
          label={t('models.create.source')}
          placeholder={t('models.create.sourcePlaceholder')}
          data={sources.map((m) => ({ value: m.name, label: displayName(m) }))}
          value={source}
          onChange={(value) => {
            setSource(value);
            setServerError(null);
          }}
          searchable
          maxDropdownHeight={5 * 36}
          nothingFoundMessage={t('list.noResults')}
          error={tried ? message(errors.source) : undefined}
          withAsterisk
        />
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
