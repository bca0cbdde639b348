import type { CardSource, CardSourceCreate, CardSourcePatch, CardSourceType } from '@centralino/contract';
import { Alert, Button, Group, Modal, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { cardsApi, refreshLists } from './cardsApi.ts';
import { canCheck, defaultPortOf, type SourceForm } from './cardsLogic.ts';

function initial(source?: CardSource): SourceForm {
  const type = source && source.type !== 'centralino' ? source.type : 'mysql';
  return {
    type,
    host: source?.host ?? '',
    port: source?.port ? String(source.port) : defaultPortOf(type),
    name: source?.name ?? '',
    user: source?.user ?? '',
    pass: '',
  };
}

/**
 * Creating or modifying a customer-card source: the connection is checked (type, name and port needed), and
 * Save is enabled only after a successful check. The password is write-only: left empty on modify, the
 * stored one is kept.
 */
export function SourceModal({
  source,
  onClose,
  onCreated,
}: {
  source?: CardSource;
  onClose: () => void;
  /** After a new source is saved: the wizard order goes on (template, then card). */
  onCreated?: (source: CardSource) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const modifying = source !== undefined;
  const [form, setForm] = useState<SourceForm>(() => initial(source));
  const [verified, setVerified] = useState<boolean | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const types = useQuery({ queryKey: ['cards', 'types'], queryFn: cardsApi.sourceTypes, staleTime: Infinity });
  const set = <K extends keyof SourceForm>(key: K, value: SourceForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setVerified(null);
    setCheckError(null);
  };
  const fields = {
    type: form.type as CardSourceType,
    host: form.host.trim(),
    port: form.port.trim(),
    name: form.name.trim(),
    user: form.user.trim(),
    // Left empty while modifying: the stored password is kept.
    ...(modifying && form.pass === '' ? {} : { pass: form.pass }),
  };
  const check = useMutation({
    mutationFn: () => cardsApi.testSource(modifying ? { id: source.id, ...fields } : fields),
    onSuccess: () => {
      setVerified(true);
      setCheckError(null);
    },
    onError: (e) => {
      setVerified(false);
      setCheckError(e instanceof ApiError ? e.body.detail : e.message);
    },
  });
  const save = useMutation({
    mutationFn: () =>
      modifying
        ? cardsApi.updateSource(source.id, fields as CardSourcePatch)
        : cardsApi.createSource(fields as CardSourceCreate),
    onSuccess: async (saved) => {
      notifySuccess(t('cards.sources.saved'));
      void refreshLists(queryClient, true);
      onClose();
      if (!modifying) onCreated?.(saved);
    },
    // The modal stays open with what was typed (as the phonebook's does): the notification says why.
    onError: (e) => notifyError(t('cards.sources.notSaved'), e),
  });
  const typeData = Object.entries(types.data ?? {}).map(([value, label]) => ({ value, label }));

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={modifying ? t('cards.sources.modal.modify') : t('cards.sources.modal.create')}
    >
      <Stack gap="sm">
        <Select
          label={t('cards.sources.modal.type')}
          data={typeData}
          value={form.type}
          allowDeselect={false}
          onChange={(value) => {
            if (!value) return;
            setForm((f) => ({ ...f, type: value, port: defaultPortOf(value) }));
            setVerified(null);
            setCheckError(null);
          }}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('cards.sources.modal.host')}
            value={form.host}
            onChange={(e) => set('host', e.currentTarget.value)}
          />
          <TextInput
            label={t('cards.sources.modal.port')}
            inputMode="numeric"
            value={form.port}
            onChange={(e) => set('port', e.currentTarget.value)}
          />
        </Group>
        <TextInput
          label={t('cards.sources.modal.name')}
          value={form.name}
          onChange={(e) => set('name', e.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('cards.sources.modal.user')}
            value={form.user}
            onChange={(e) => set('user', e.currentTarget.value)}
          />
          <PasswordInput
            label={t('cards.sources.modal.password')}
            placeholder={modifying && source.has_password ? t('cards.sources.modal.passwordKept') : undefined}
            value={form.pass}
            onChange={(e) => set('pass', e.currentTarget.value)}
          />
        </Group>
        <Group>
          <Button
            variant="default"
            disabled={!canCheck(form, modifying)}
            loading={check.isPending}
            onClick={() => check.mutate()}
          >
            {t('cards.sources.modal.check')}
          </Button>
          <Text size="sm" fw={600} role="status">
            {verified === true ? t('cards.sources.modal.verified') : ''}
          </Text>
        </Group>
        {checkError && (
          <Alert color="red" title={t('cards.sources.modal.notVerified')}>
            {checkError}
          </Alert>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={verified !== true} loading={save.isPending} onClick={() => save.mutate()}>
            {t('cards.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
