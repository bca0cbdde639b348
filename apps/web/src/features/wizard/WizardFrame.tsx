import { type ProvisioningEngine, stepPath } from '@centralino/contract';
import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { stepTitleKey } from '../../app/paths.ts';
import { StepBar } from './StepBar.tsx';

/** A wizard step: its title, the screen, then the step bar. */
export function WizardFrame({
  engine,
  step,
  canAdvance,
  children,
}: {
  engine: ProvisioningEngine;
  step: number;
  canAdvance?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t(stepTitleKey(stepPath(engine, step)))}
      </Title>
      {children}
      <StepBar engine={engine} step={step} canAdvance={canAdvance} />
    </Stack>
  );
}
