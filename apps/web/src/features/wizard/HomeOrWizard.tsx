import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { HomePage } from '../home/HomePage.tsx';
import { routeOfStep, useEngine, useWizardState } from './useWizard.ts';
import { WizardFrame } from './WizardFrame.tsx';

/** "/" is the home page once the wizard is finished; while it runs, it is the current step. */
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
  if (!wizard.data.active) return <HomePage />;
  const target = routeOfStep(engine.data, wizard.data.step);
  if (target !== '/') return <Navigate to={target} replace />;
  return (
    <WizardFrame engine={engine.data} step={wizard.data.step}>
      <Text c="dimmed">{t('wizard.pendingBody')}</Text>
    </WizardFrame>
  );
}
