import { SYNC_POLL_MS, stepOfPath, type Task } from '@centralino/contract';
import { Alert, Badge, Card, Center, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowRight, IconDatabase, IconServer2 } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { migrationApi } from '../migration/migrationApi.ts';
import { useEngine, useWizardMove, useWizardState } from '../wizard/useWizard.ts';
import { WizardFrame } from '../wizard/WizardFrame.tsx';
import { DirectoryForm, DirectoryHelpLink } from './DirectoryForm.tsx';
import { usersApi } from './usersApi.ts';

const PATH = '/users';
/** Consecutive failed polls after which the installation is reported as failed (contract §4.3). */
const MAX_POLL_ERRORS = 6;

/** Follows a directory installation task: progress 0–100, -1 once it failed. */
function useInstallTask(taskId: string | null) {
  const errors = useRef(0);
  const [progress, setProgress] = useState<number | null>(null);
  const task = useQuery({
    queryKey: ['task', taskId],
    enabled: taskId !== null,
    retry: false,
    queryFn: async (): Promise<Task> => {
      try {
        const result = await usersApi.task(taskId as string);
        errors.current = 0;
        return result;
      } catch (error) {
        errors.current += 1;
        if (errors.current >= MAX_POLL_ERRORS) setProgress(-1);
        throw error;
      }
    },
    refetchInterval: (query) => {
      const p = query.state.data?.progress;
      if (errors.current >= MAX_POLL_ERRORS || p === 100 || p === -1) return false;
      return SYNC_POLL_MS;
    },
  });
  const current = progress ?? task.data?.progress ?? (taskId ? 0 : null);
  return { progress: current, action: task.data?.action, error: task.data?.error };
}

/** First run: the administrator chooses the built-in directory or an existing LDAP / Active Directory. */
export function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const engine = useEngine();
  const wizard = useWizardState();
  const provider = useQuery({ queryKey: ['userprovider'], queryFn: api.userProvider });
  const [taskId, setTaskId] = useState<string | null>(null);
  const [choice, setChoice] = useState<'local' | 'provider' | null>(null);
  const install = useInstallTask(taskId);
  const move = useWizardMove(engine.data ?? 'tancredi');
  const wasConfigured = useRef<boolean | null>(null);

  const startInstall = useMutation({
    mutationFn: () => usersApi.setMode('legacy'),
    onSuccess: ({ result }) => setTaskId(result),
  });

  const installed = install.progress === 100;
  useEffect(() => {
    if (installed) void queryClient.invalidateQueries({ queryKey: ['userprovider'] });
  }, [installed, queryClient]);

  // With an older system to migrate from, the next screen is the migration (spec: choosing legacy).
  const goOn = async () => {
    if (await migrationApi.isMigration().catch(() => false)) {
      navigate('/migration');
      return;
    }
    if (wizard.data?.active && wizard.data.step === 0) move.mutate({ status: 'true', step: 1 });
    else navigate('/extensions');
  };

  // Once a directory exists this page has nothing to choose: go on to the extensions.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the answers arrive, not on every render
  useEffect(() => {
    if (!provider.data || !wizard.data) return;
    wasConfigured.current ??= provider.data.configured === 1;
    if (wasConfigured.current && provider.data.configured === 1) {
      if (wizard.data.active && wizard.data.step === 0) move.mutate({ status: 'true', step: 1 });
      else navigate('/extensions', { replace: true });
    }
  }, [provider.data, wizard.data]);

  if (!provider.data || !engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }

  const body = (
    <Stack gap="lg">
      <Title order={3}>{t('users.choose')}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <IconDatabase />
                <Text fw={600}>{t('users.local.title')}</Text>
              </Group>
              <Badge variant="light">{t('users.modes.legacy')}</Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t('users.local.description')}
            </Text>
            {install.progress === null ? (
              <WriteButton
                loading={startInstall.isPending}
                disabled={choice === 'provider'}
                onClick={() => {
                  setChoice('local');
                  startInstall.mutate();
                }}
              >
                {t('users.local.button')}
              </WriteButton>
            ) : install.progress === -1 ? (
              <Alert color="red" icon={<IconAlertTriangle />} title={t('users.local.failed')}>
                <Stack gap="xs">
                  {install.error && <Text size="sm">{install.error}</Text>}
                  <WriteButton variant="default" onClick={() => startInstall.mutate()}>
                    {t('users.local.retry')}
                  </WriteButton>
                </Stack>
              </Alert>
            ) : installed ? (
              <Stack gap="xs">
                <Progress value={100} color="teal" aria-label={t('users.local.progress', { percent: 100 })} />
                <Text size="xs" c="dimmed" data-testid="install-percent">
                  {t('users.local.progress', { percent: 100 })}
                </Text>
                <Text size="sm" c="var(--mantine-color-teal-light-color)">
                  {t('users.local.done')}
                </Text>
                <WriteButton rightSection={<IconArrowRight size={16} />} loading={move.isPending} onClick={goOn}>
                  {t('wizard.next')}
                </WriteButton>
              </Stack>
            ) : (
              <Stack gap="xs" data-testid="install-progress">
                <Text size="sm">{t('users.local.installing')}</Text>
                <Progress
                  value={install.progress}
                  animated
                  aria-label={t('users.local.progress', { percent: install.progress })}
                />
                <Text size="xs" c="dimmed" data-testid="install-percent">
                  {t('users.local.progress', { percent: install.progress })}
                </Text>
              </Stack>
            )}
            {startInstall.error && (
              <Alert color="red" title={t('users.local.failed')}>
                {startInstall.error.message}
              </Alert>
            )}
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <IconServer2 />
                <Text fw={600}>{t('users.provider.title')}</Text>
              </Group>
              <Badge variant="light" color="grape">
                {t('users.modes.uc')}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {t('users.provider.description')}
            </Text>
            <DirectoryHelpLink />
            {choice !== 'provider' && (
              <WriteButton variant="default" disabled={install.progress !== null} onClick={() => setChoice('provider')}>
                {t('users.provider.button')}
              </WriteButton>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
      {choice === 'provider' && (
        <Card withBorder radius="md" padding="lg">
          <DirectoryForm
            onSaved={() => {
              void queryClient.invalidateQueries({ queryKey: ['userprovider'] });
              void goOn();
            }}
          />
        </Card>
      )}
    </Stack>
  );

  const step = stepOfPath(engine.data, PATH);
  if (wizard.data.active && step !== undefined) {
    return (
      <WizardFrame engine={engine.data} step={step} canAdvance={provider.data.configured === 1}>
        {body}
      </WizardFrame>
    );
  }
  return body;
}
