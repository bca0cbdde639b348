import type { MigrationStepResult, OldUser } from '@centralino/contract';
import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconRestore, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { confirmAction } from '../../components/confirm.tsx';
import { ListView } from '../../components/ListView.tsx';
import { WriteActionIcon, WriteButton } from '../../components/WriteControls.tsx';
import { usersApi } from '../users/usersApi.ts';
import { MigrationHeader } from './MigrationSteps.tsx';
import { migrationApi } from './migrationApi.ts';
import { StepLists } from './StepLists.tsx';

/** The users step polls the import as the CSV import does (spec: every 5 seconds). */
const POLL_MS = 5000;

type Phase = 'todo' | 'loading' | 'success' | 'fail';

/** An old extension as edited here: the username to give it (empty: not migrated) and the old one, for reset. */
interface Row extends OldUser {
  oldusername: string;
}

/** Usernames given to more than one extension: 'Username already used' blocks the import. */
function duplicates(rows: Row[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const r of rows) {
    if (!r.username) continue;
    if (seen.has(r.username)) twice.add(r.username);
    seen.add(r.username);
  }
  return twice;
}

/** /migration/users: profiles, then users and their extensions. */
export function MigrationUsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const cameFromStart = Boolean((location.state as { start?: boolean } | null)?.start);
  const status = useQuery({ queryKey: ['migration', 'status'], queryFn: migrationApi.status });
  const old = useQuery({ queryKey: ['migration', 'oldusers'], queryFn: migrationApi.oldUsers });
  const existing = useQuery({
    queryKey: ['migration', 'existing-users'],
    queryFn: () => usersApi.page({ limit: 500 } as Parameters<typeof usersApi.page>[0]),
  });
  const [rows, setRows] = useState<Row[]>([]);
  const [profiles, setProfiles] = useState<{ phase: Phase; result?: MigrationStepResult }>({ phase: 'todo' });
  const [users, setUsers] = useState<{ phase: Phase; progress: number; failures: string[] }>({
    phase: 'todo',
    progress: 0,
    failures: [],
  });
  const started = useRef(false);

  useEffect(() => {
    if (old.data) setRows(old.data.map((u) => ({ ...u, oldusername: u.username })));
  }, [old.data]);

  const runProfiles = useCallback(async () => {
    setProfiles({ phase: 'loading' });
    const answer = await migrationApi.importProfiles().catch(() => undefined);
    setProfiles({ phase: answer?.ok ? 'success' : 'fail', result: answer?.result });
  }, []);

  // Profiles migrate by themselves when the administrator has just pressed Start migration.
  useEffect(() => {
    if (!started.current && cameFromStart && status.data === 'ready') {
      started.current = true;
      void runProfiles();
    }
  }, [cameFromStart, status.data, runProfiles]);

  // A migration already past a step (the page opened again later) shows that step done: read from the status,
  // not copied into state.
  const profilesPhase: Phase =
    profiles.phase === 'todo' && status.data && status.data !== 'ready' ? 'success' : profiles.phase;
  const usersPhase: Phase =
    users.phase === 'todo' && status.data && !['ready', 'profiles', 'users'].includes(status.data)
      ? 'success'
      : users.phase;

  const twice = useMemo(() => duplicates(rows), [rows]);
  const suggestions = useMemo(
    () =>
      [...new Set([...(existing.data?.users ?? []).map((u) => u.username), ...rows.map((r) => r.oldusername)])].filter(
        Boolean,
      ),
    [existing.data, rows],
  );
  const setUsername = (extension: string, username: string) =>
    setRows((list) => list.map((r) => (r.extension === extension ? { ...r, username: username.trim() } : r)));

  const poll = async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const s = await migrationApi.importStatus().catch(() => undefined);
      if (!s) continue;
      if (s.result === 100) {
        setUsers({ phase: 'success', progress: 100, failures: [] });
        return;
      }
      if (s.result < 0) {
        setUsers({
          phase: 'fail',
          progress: 100,
          failures: s.failures.map((f) => (f.username ? `${f.username}: ${f.message}` : f.message)),
        });
        return;
      }
      setUsers((u) => ({ ...u, progress: s.result }));
    }
  };

  const startUsers = async () => {
    const ok = await confirmAction({
      title: t('migration.users.confirmTitle'),
      message: t('migration.users.confirmBody'),
    });
    if (!ok) return;
    setUsers({ phase: 'loading', progress: 0, failures: [] });
    try {
      await migrationApi.importUsers(
        rows
          .filter((r) => r.username)
          .map((r) => ({
            extension: r.extension,
            username: r.username,
            // The import needs a name: an old extension without one goes by its user name.
            name: r.name || r.username,
            cellphone: r.cellphone,
            voicemail: r.voicemail,
            profile_id: r.profile_id,
          })),
      );
      await poll();
    } catch (error) {
      setUsers({ phase: 'fail', progress: 0, failures: [error instanceof Error ? error.message : String(error)] });
    }
  };

  const remove = async (row: Row) => {
    const ok = await confirmAction({
      title: t('migration.users.removeTitle'),
      message: t('migration.users.removeBody', { extension: row.extension }),
      danger: true,
      confirmLabel: t('migration.users.removeConfirm'),
    });
    if (ok) setRows((list) => list.filter((r) => r.extension !== row.extension));
  };

  const profilesDone = profilesPhase === 'success' || profilesPhase === 'fail';
  const usersDone = usersPhase === 'success' || usersPhase === 'fail';
  // What the import said of every old extension (a user name made for it, left out, refused, the count): the
  // report's users section, which the server writes when the import starts and ends.
  const lines = useQuery({
    queryKey: ['migration', 'report', 'users', users.phase],
    queryFn: migrationApi.report,
    enabled: usersDone,
    // The import's last lines (refusals, the count) are written just after it ends: read again once or twice.
    refetchInterval: (query) => (query.state.dataUpdateCount < 3 ? 2000 : false),
  });
  const usersLines = lines.data?.csvimport;

  return (
    <Stack gap="lg" maw={1100}>
      <MigrationHeader active={0} title={t('migration.users.title')} />
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between">
          <Text fw={600}>{t('migration.users.profiles')}</Text>
          {profilesPhase === 'loading' && <Loader size="sm" aria-label={t('app.loading')} />}
          {profilesPhase === 'todo' && (
            <WriteButton onClick={runProfiles}>{t('migration.users.migrateProfiles')}</WriteButton>
          )}
          {profilesDone && (
            <Badge color={profilesPhase === 'success' ? 'green' : 'red'} variant="light" role="status">
              {t(`migration.phase.${profilesPhase}`)}
            </Badge>
          )}
        </Group>
        {profiles.result && <StepLists result={profiles.result} />}
      </Paper>

      {profilesDone && (
        <Paper withBorder p="md" radius="md">
          <Stack>
            <Group justify="space-between">
              <Text fw={600}>{t('migration.users.users')}</Text>
              {usersPhase === 'todo' && (
                <WriteButton onClick={startUsers} disabled={twice.size > 0 || rows.every((r) => !r.username)}>
                  {t('migration.users.migrateUsers')}
                </WriteButton>
              )}
              {usersPhase === 'fail' && <WriteButton onClick={startUsers}>{t('migration.users.tryAgain')}</WriteButton>}
              {usersPhase === 'success' && (
                <Badge color="green" variant="light" role="status">
                  {t('migration.phase.success')}
                </Badge>
              )}
            </Group>
            {usersPhase === 'fail' && (
              <Alert color="red" title={t('migration.users.failed')} role="alert">
                {users.failures.slice(0, 20).map((f) => (
                  <Text size="sm" key={f}>
                    {f}
                  </Text>
                ))}
              </Alert>
            )}
            {usersDone && usersLines && (
              <div data-testid="users-lines">
                <Text size="sm" fw={600}>
                  {t('migration.users.lines')}
                </Text>
                <StepLists
                  result={{
                    // A failed import lists its refusals in the alert above already.
                    errors: users.phase === 'fail' ? [] : (usersLines.errors ?? []),
                    warnings: usersLines.warnings ?? [],
                    infos: usersLines.infos ?? [],
                  }}
                />
              </div>
            )}
            {usersPhase === 'todo' && (
              <ListView<Row>
                items={rows}
                label={t('migration.users.users')}
                getKey={(r) => r.extension}
                searchText={(r) => `${r.extension} ${r.name} ${r.username}`}
                emptyText={t('migration.users.empty')}
                renderItem={(r) => (
                  <Paper withBorder p="xs" radius="md" data-testid="old-user">
                    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                      <div>
                        <Text fw={500}>{r.extension}</Text>
                        <Text size="sm" c="dimmed">
                          {r.name}
                        </Text>
                      </div>
                      <Autocomplete
                        label={t('migration.users.username', { extension: r.extension })}
                        data={suggestions}
                        limit={20}
                        value={r.username}
                        onChange={(v) => setUsername(r.extension, v)}
                        placeholder={t('migration.users.notMigrated')}
                        error={twice.has(r.username) ? t('migration.users.usernameUsed') : undefined}
                        description={
                          r.username_from === 'name' && r.username === r.oldusername
                            ? t('migration.users.derivedName')
                            : r.username_from === 'extension' && r.username === r.oldusername
                              ? t('migration.users.derivedExtension')
                              : undefined
                        }
                      />
                      <Group gap="xs" align="end">
                        <WriteActionIcon
                          variant="default"
                          size="lg"
                          aria-label={t('migration.users.reset', { extension: r.extension })}
                          onClick={() => setUsername(r.extension, r.oldusername)}
                        >
                          <IconRestore size={18} />
                        </WriteActionIcon>
                        <WriteActionIcon
                          variant="default"
                          color="red"
                          size="lg"
                          aria-label={t('migration.users.remove', { extension: r.extension })}
                          onClick={() => remove(r)}
                        >
                          <IconTrash size={18} />
                        </WriteActionIcon>
                      </Group>
                    </SimpleGrid>
                  </Paper>
                )}
              />
            )}
          </Stack>
        </Paper>
      )}

      <Group justify="flex-end">
        <Button onClick={() => navigate('/migration/config')} disabled={!usersDone}>
          {t('wizard.next')}
        </Button>
      </Group>

      <Modal
        opened={usersPhase === 'loading'}
        onClose={() => {}}
        withCloseButton={false}
        title={t('migration.users.importing')}
      >
        <Progress value={users.progress} aria-label={t('migration.users.importing')} />
      </Modal>
    </Stack>
  );
}
