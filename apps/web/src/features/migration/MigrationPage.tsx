import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { confirmAction } from '../../components/confirm.tsx';
import { WriteButton } from '../../components/WriteControls.tsx';
import { DryRunPanel } from './DryRunPanel.tsx';
import { MigrationHeader } from './MigrationSteps.tsx';
import { migrationApi } from './migrationApi.ts';

/** /migration: start the migration from the older system, or skip to the call records. */
export function MigrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const available = useQuery({ queryKey: ['migration', 'available'], queryFn: migrationApi.isMigration });
  // The spec's confirmation: the profiles step writes as soon as the users page opens.
  const start = async () => {
    const ok = await confirmAction({
      title: t('migration.startConfirmTitle'),
      message: t('migration.startConfirmBody'),
      confirmLabel: t('migration.start'),
    });
    if (ok) navigate('/migration/users', { state: { start: true } });
  };
  return (
    <Stack gap="lg" maw={900}>
      <MigrationHeader active={-1} title={t('migration.title')} />
      <Text>{t('migration.intro')}</Text>
      {available.data === false && (
        <Alert color="yellow" title={t('migration.notAvailable')}>
          {t('migration.notAvailableBody')}
        </Alert>
      )}
      <Group>
        <WriteButton onClick={start} disabled={!available.data}>
          {t('migration.start')}
        </WriteButton>
        <Button variant="default" onClick={() => navigate('/migration/cdr')} disabled={!available.data}>
          {t('migration.skip')}
        </Button>
      </Group>
      {available.data && <DryRunPanel />}
    </Stack>
  );
}
