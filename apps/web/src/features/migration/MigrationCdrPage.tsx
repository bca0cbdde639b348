import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { WriteButton } from '../../components/WriteControls.tsx';
import { MigrationHeader } from './MigrationSteps.tsx';
import { migrationApi } from './migrationApi.ts';

/** /migration/cdr: how many old call records there are, and their copy in the background with its progress. */
export function MigrationCdrPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const count = useQuery({ queryKey: ['migration', 'cdrcount'], queryFn: migrationApi.cdrCount });
  const [started, setStarted] = useState(false);
  const progress = useQuery({
    queryKey: ['migration', 'cdrprogress'],
    queryFn: migrationApi.cdrProgress,
    refetchInterval: (q) => (q.state.data?.status === undefined && (started || q.state.data) ? 2000 : false),
  });
  const p = progress.data;
  const finished = p?.status === true;
  const failed = p?.status === false;

  const start = async () => {
    setStarted(true);
    await migrationApi.startCdr();
    await progress.refetch();
  };
  const toReport = async () => {
    await migrationApi.setStatus('cdr');
    navigate('/migration/report');
  };

  return (
    <Stack gap="lg" maw={900}>
      <MigrationHeader active={2} title={t('migration.cdr.title')} />
      <Text data-testid="cdr-count">{t('migration.cdr.count', { count: Number(count.data?.count ?? 0) })}</Text>
      <Alert color="yellow">{t('migration.cdr.warning')}</Alert>
      {p && (
        <Stack gap={4}>
          <Progress value={p.progress} aria-label={t('migration.cdr.progress')} />
          <Text size="sm" role="status">
            {finished
              ? t('migration.cdr.done', { count: p.copied })
              : failed
                ? t('migration.cdr.failed')
                : t('migration.cdr.running', { progress: p.progress })}
          </Text>
        </Stack>
      )}
      <Group justify="space-between">
        <WriteButton onClick={start} disabled={Boolean(p && !failed)}>
          {t('migration.cdr.start')}
        </WriteButton>
        <Button onClick={toReport} disabled={!finished && !failed && Boolean(p)}>
          {t('migration.cdr.toReport')}
        </Button>
      </Group>
    </Stack>
  );
}
