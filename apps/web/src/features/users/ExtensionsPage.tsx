import { SYNC_POLL_MS, type User, type UserListFilter, type UserListSort } from '@centralino/contract';
import { Alert, Anchor, Button, Card, Center, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconDownload, IconExternalLink, IconRefresh, IconUpload, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { PagedList } from '../../components/PagedList.tsx';
import { WriteButton } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { AddUserModal } from './AddUserModal.tsx';
import { ExtensionRow } from './ExtensionRow.tsx';
import { ImportModal } from './ImportModal.tsx';
import { usersApi } from './usersApi.ts';

const PATH = '/extensions';
const LIST_KEY = ['users', 'page'] as const;

/** Polls GET /users/sync every 5 s from page load; at the first false, reloads the lists and stops. */
function useDirectorySync(enabled: boolean, round: number, onDone: () => void) {
  const [syncing, setSyncing] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new round (another sync started) restarts the polling
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const running = await usersApi.syncing();
        if (cancelled) return;
        setSyncing(running);
        if (!running) {
          onDone();
          return;
        }
      } catch {
        // A failed poll is retried at the next interval.
      }
      if (!cancelled) timer = setTimeout(poll, SYNC_POLL_MS);
    };
    void poll();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [enabled, round, onDone]);
  return syncing;
}

function download(base64: string, name: string) {
  const link = document.createElement('a');
  link.href = `data:application/octet-stream;base64,${base64}`;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

export function ExtensionsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const provider = useQuery({ queryKey: ['userprovider'], queryFn: api.userProvider });
  const limits = useQuery({ queryKey: ['users', 'limits'], queryFn: usersApi.limits });
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [directoryEmpty, setDirectoryEmpty] = useState(false);
  const external = provider.data?.configured === 1 && provider.data.local === 0;

  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['users'] });
  }, [queryClient]);

  // For an external directory, opening the page asks for a fresh copy of its users.
  // (Kept outside the 'users' keys, or every reload of the list would start another sync.)
  const sync = useQuery({
    queryKey: ['directory-sync-start'],
    queryFn: usersApi.startSync,
    enabled: external,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const syncing = useDirectorySync(external && sync.isSuccess, sync.dataUpdatedAt, reload);

  const exportCsv = useMutation({
    mutationFn: usersApi.exportCsv,
    onSuccess: (base64) => download(base64, 'users.csv'),
    onError: (error) => notifyError(t('extensions.exportError'), error),
  });

  const onTotal = useCallback((total: number, search: string) => {
    if (!search) setDirectoryEmpty(total === 0);
  }, []);

  if (!provider.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (provider.data.configured === 0) return <Navigate to="/users" replace />;

  const local = provider.data.local === 1;
  const l = limits.data;
  const licenceExhausted = l !== undefined && l.configurable !== false && l.configurable <= 0;
  const portal = provider.data.domain
    ? `https://${window.location.hostname}/users-admin/${provider.data.domain}/#/login`
    : undefined;

  const filters: { value: UserListFilter; label: string }[] = [
    { value: 'all', label: t('extensions.filters.all') },
    { value: 'configured', label: t('extensions.filters.configured') },
    { value: 'unconfigured', label: t('extensions.filters.unconfigured') },
  ];
  const sorts: { value: UserListSort; label: string }[] = [
    { value: 'extension', label: t('extensions.sorts.extension') },
    { value: 'username', label: t('extensions.sorts.username') },
    { value: 'displayname', label: t('extensions.sorts.displayname') },
  ];

  const body = (
    <Stack gap="md">
      <Card withBorder radius="md">
        <Group justify="space-between" align="start">
          <Group gap="xs">
            {local && (
              <WriteButton leftSection={<IconUserPlus size={16} />} onClick={() => setAdding(true)}>
                {t('extensions.addUser')}
              </WriteButton>
            )}
            {local && (
              <WriteButton variant="default" leftSection={<IconUpload size={16} />} onClick={() => setImporting(true)}>
                {t('extensions.import')}
              </WriteButton>
            )}
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exportCsv.isPending}
              onClick={() => exportCsv.mutate()}
            >
              {t('extensions.export')}
            </Button>
            {!local && (
              <Button
                variant="subtle"
                leftSection={<IconRefresh size={16} />}
                onClick={() => void sync.refetch()}
                disabled={syncing}
              >
                {t('extensions.sync')}
              </Button>
            )}
          </Group>
          <Stack gap={4} align="end">
            {l && l.limit !== false && (
              <Stack gap={2} w={220} data-testid="licence-meter">
                <Text size="sm">{t('extensions.left', { count: Math.max(0, Number(l.configurable)) })}</Text>
                <Progress value={(l.configured / Math.max(1, l.limit)) * 100} aria-label={t('extensions.meter')} />
              </Stack>
            )}
            {portal && (
              <Anchor href={portal} target="_blank" rel="noreferrer" size="sm">
                <Group gap={4}>
                  {t('extensions.portal')}
                  <IconExternalLink size={14} />
                </Group>
              </Anchor>
            )}
          </Stack>
        </Group>
      </Card>
      {syncing && (
        <Alert color="yellow" title={t('extensions.syncing')}>
          {t('extensions.syncingDetail')}
        </Alert>
      )}
      {licenceExhausted && (
        <Alert color="orange" title={t('extensions.licenceTitle')}>
          {t('extensions.licence')}
        </Alert>
      )}
      {directoryEmpty && !syncing && (
        <Alert color="yellow" title={t('extensions.noUsers')}>
          {local ? t('extensions.addFirst') : t('extensions.checkDirectory')}
        </Alert>
      )}
      <PagedList<User>
        queryKey={LIST_KEY}
        label={t('extensions.listLabel')}
        fetchPage={async (request) => {
          const { users, total } = await usersApi.page({
            search: request.search || undefined,
            filter: request.filter as UserListFilter | undefined,
            sort: request.sort as UserListSort | undefined,
            offset: request.offset,
            limit: request.limit,
          });
          return { items: users, total };
        }}
        filters={filters}
        sorts={sorts}
        getKey={(u) => u.username}
        emptyText={t('extensions.noMatch')}
        onTotal={onTotal}
        renderItem={(user) => <ExtensionRow user={user} licenceExhausted={licenceExhausted} onChanged={reload} />}
      />
      <AddUserModal
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(user) => {
          setAdding(false);
          notifySuccess(t('addUser.created', { username: user.username, password: user.password }));
          reload();
        }}
      />
      <ImportModal opened={importing} onClose={() => setImporting(false)} onImported={reload} />
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('extensions.title')} canAdvance={(l?.configured ?? 0) > 0}>
      {body}
    </StepScreen>
  );
}
