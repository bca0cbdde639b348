import type { PhonebookSource, PhonebookSourceWrite } from '@centralino/contract';
import {
  ActionIcon,
  Badge,
  Card,
  Center,
  Code,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconEye, IconEyeOff, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useCredentialGuard, WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { ContactsList } from './ContactsList.tsx';
import { phonebookApi } from './phonebookApi.ts';
import { SourceModal } from './SourceModal.tsx';

/** The stored password, fetched when the administrator asks (the list carries none) and forgotten when hidden. */
function PasswordField({ id }: { id: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<string | null>(null);
  const read = useMutation({ mutationFn: () => phonebookApi.password(id), onSuccess: (r) => setShown(r.password) });
  const guard = useCredentialGuard();
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm">{t('phonebook.card.password')}:</Text>
      {shown === null ? <Text size="sm">••••••</Text> : <Code data-testid={`password-${id}`}>{shown}</Code>}
      <ActionIcon
        variant="subtle"
        size="sm"
        loading={read.isPending}
        {...guard}
        aria-label={shown === null ? t('phonebook.card.show') : t('phonebook.card.hide')}
        onClick={() => (shown === null ? read.mutate() : setShown(null))}
      >
        {shown === null ? <IconEye size={14} /> : <IconEyeOff size={14} />}
      </ActionIcon>
    </Group>
  );
}

/** What the modal needs to save the same source again with one field changed (the password stays stored). */
export function writeOf(source: PhonebookSource): PhonebookSourceWrite {
  const common = {
    mapping: source.mapping as PhonebookSourceWrite['mapping'],
    type: source.type,
    interval: Number(source.interval),
    enabled: source.enabled,
  };
  return source.dbtype === 'mysql'
    ? {
        dbtype: 'mysql',
        host: source.host ?? '',
        port: source.port ?? '',
        user: source.user ?? '',
        dbname: source.dbname ?? '',
        query: source.query ?? '',
        ...common,
      }
    : { dbtype: 'csv', url: source.url ?? '', ...common };
}

function SourceCard({ id, source, onEdit }: { id: string; source: PhonebookSource; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['phonebook'] });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => phonebookApi.update(id, { ...writeOf(source), enabled }),
    onSuccess: reload,
    onError: (e) => notifyError(t('phonebook.errors.save'), e),
  });
  const sync = useMutation({
    mutationFn: () => phonebookApi.sync(id),
    onSettled: reload,
  });
  const remove = async () => {
    const ok = await confirmAction({
      title: t('phonebook.delete.title'),
      message: t('phonebook.delete.message', { name: source.type }),
      confirmLabel: t('phonebook.delete.confirm'),
      danger: true,
    });
    if (!ok) return;
    try {
      await phonebookApi.remove(id);
      notifySuccess(t('phonebook.deleted'));
      await reload();
    } catch (e) {
      notifyError(t('phonebook.errors.delete'), e);
    }
  };
  const syncHint = useId();
  const last = source.sync;
  const when = last.at ? new Date(last.at).toLocaleString(i18n.language) : null;
  return (
    <Card withBorder radius="md" p="md" data-testid={`phonebook-source-${id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {source.type}
          </Title>
          <Badge variant="light">{source.dbtype === 'mysql' ? 'MySQL' : 'CSV'}</Badge>
        </Group>
        {source.dbtype === 'mysql' ? (
          <>
            <Text size="sm">
              {t('phonebook.card.host')}: {source.host}:{source.port}
            </Text>
            <Text size="sm">
              {t('phonebook.card.user')}: {source.user}
            </Text>
            {source.has_password && <PasswordField id={id} />}
          </>
        ) : (
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {t('phonebook.card.url')}: {source.url?.startsWith('file:///') ? t('phonebook.card.uploaded') : source.url}
          </Text>
        )}
        <Group gap="xs">
          <WriteFieldset>
            <Switch
              label={t('phonebook.card.enabled')}
              checked={source.enabled}
              disabled={toggle.isPending}
              onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            />
          </WriteFieldset>
          <Badge variant="outline" color="gray">
            {t(`phonebook.intervals.${source.interval}`)}
          </Badge>
        </Group>
        <Text size="sm" c={last.error ? 'red' : 'dimmed'} data-testid="sync-status" role="status">
          {!when
            ? t('phonebook.card.never')
            : last.error
              ? t('phonebook.card.failed', { when, error: last.error })
              : t('phonebook.card.synced', { when, count: last.contacts ?? 0, skipped: last.skipped ?? 0 })}
        </Text>
        <Group gap="xs">
          <WriteButton variant="default" size="xs" onClick={onEdit}>
            {t('phonebook.modify')}
          </WriteButton>
          <WriteButton variant="default" size="xs" color="red" onClick={() => void remove()}>
            {t('phonebook.delete.button')}
          </WriteButton>
          <WriteButton
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={14} />}
            disabled={!source.enabled}
            aria-describedby={source.enabled ? undefined : syncHint}
            loading={sync.isPending}
            onClick={() => sync.mutate()}
          >
            {t('phonebook.sync')}
          </WriteButton>
          {sync.isSuccess && (
            <IconCircleCheck size={18} color="var(--mantine-color-green-8)" aria-label={t('phonebook.syncOk')} />
          )}
          {sync.isError && (
            <IconAlertTriangle size={18} color="var(--mantine-color-red-8)" aria-label={t('phonebook.syncFailed')} />
          )}
        </Group>
        {/* Why Sync is greyed out, said where it shows and read with the button (a tooltip is not enough). */}
        {!source.enabled && (
          <Text size="xs" c="dimmed" id={syncHint}>
            {t('phonebook.syncDisabled')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** Phonebook sources (/apps/phonebook): databases and files synced into the phonebook the phones search. */
export function PhonebookPage() {
  const { t } = useTranslation();
  const sources = useQuery({ queryKey: ['phonebook', 'sources'], queryFn: phonebookApi.list });
  const [editing, setEditing] = useState<{ id?: string } | null>(null);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('phonebook.title')}
        </Title>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setEditing({})}>
          {t('phonebook.create')}
        </WriteButton>
      </Group>
      <Text c="dimmed">{t('phonebook.intro')}</Text>
      {sources.isPending ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : sources.isError ? (
        <Text c="red">{sources.error.message}</Text>
      ) : Object.keys(sources.data).length === 0 ? (
        <Text>{t('phonebook.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {Object.entries(sources.data).map(([id, source]) => (
            <SourceCard key={id} id={id} source={source} onEdit={() => setEditing({ id })} />
          ))}
        </SimpleGrid>
      )}
      <ContactsList />
      {editing && (
        <SourceModal
          id={editing.id}
          source={editing.id ? sources.data?.[editing.id] : undefined}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
