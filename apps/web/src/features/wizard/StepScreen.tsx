import { stepOfPath } from '@centralino/contract';
import { Center, Loader, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine, useWizardState } from './useWizard.ts';
import { WizardFrame } from './WizardFrame.tsx';

/**
 * A screen that is also a wizard step: inside the wizard frame (step title and step bar) while the
 * wizard runs, under its own title afterwards.
 */
export function StepScreen({
  path,
  title,
  canAdvance,
  children,
}: {
  path: string;
  title: string;
  /** False keeps Next disabled until the screen's own work is done. */
  canAdvance?: boolean;
  children: ReactNode;
}) {
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
  const step = stepOfPath(engine.data, path);
  if (wizard.data.active && step !== undefined) {
    return (
      <WizardFrame engine={engine.data} step={step} canAdvance={canAdvance}>
        {children}
      </WizardFrame>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
