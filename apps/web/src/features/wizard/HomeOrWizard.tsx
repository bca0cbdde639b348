import { migrationPath } from '@centralino/contract';
import { Center, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { DashboardPage } from '../dashboard/DashboardPage.tsx';
import { migrationApi } from '../migration/migrationApi.ts';
import { routeOfStep, useEngine, useWizardState } from './useWizard.ts';
import { WizardFrame } from './WizardFrame.tsx';

/**
 * "/" is the dashboard once the wizard is finished; while it runs, it is the current step — unless a migration
 * from the older system is in progress: then a system with a user directory goes where the migration status
 * says, and one without goes to /users (spec: after login).
 */
export function HomeOrWizard() {
  const { t } = useTranslation();
  const engine = useEngine();
  const wizard = useWizardState();
  const active = Boolean(wizard.data?.active);
  const migrating = useQuery({
    queryKey: ['migration', 'available'],
    queryFn: migrationApi.isMigration,
    enabled: active,
  });
  const inMigration = active && migrating.data === true;
  const status = useQuery({ queryKey: ['migration', 'status'], queryFn: migrationApi.status, enabled: inMigration });
  const provider = useQuery({ queryKey: ['userprovider'], queryFn: api.userProvider, enabled: inMigration });
  const loading = (
    <Center mt="xl">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
  if (!engine.data || !wizard.data) return loading;
  if (!wizard.data.active) return <DashboardPage />;
  if (migrating.isPending && !migrating.isError) return loading;
  if (inMigration) {
    if (!status.data || !provider.data) return loading;
    return <Navigate to={provider.data.configured === 1 ? migrationPath(status.data) : '/users'} replace />;
  }
  const target = routeOfStep(engine.data, wizard.data.step);
  if (target !== '/') return <Navigate to={target} replace />;
  return (
    <WizardFrame engine={engine.data} step={wizard.data.step}>
      <Text c="dimmed">{t('wizard.pendingBody')}</Text>
    </WizardFrame>
  );
}
