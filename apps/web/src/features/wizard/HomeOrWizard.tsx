import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { DashboardPage } from '../dashboard/DashboardPage.tsx';
import { routeOfStep, useEngine, useWizardState } from './useWizard.ts';
import { WizardFrame } from './WizardFrame.tsx';

/** "/" is the dashboard once the wizard is finished; while it runs, it is the current step. */
export function HomeOrWizard() {
  const { t } = useTranslation();
  const engine = useEngine();
  const wizard = useWizardState();
  if (!engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (!wizard.data.active) return <DashboardPage />;
  const target = routeOfStep(engine.data, wizard.data.step);
  if (target !== '/') return <Navigate to={target} replace />;
  return (
    <WizardFrame engine={engine.data} step={wizard.data.step}>
      <Text c="dimmed">{t('wizard.pendingBody')}</Text>
    </WizardFrame>
  );
}
