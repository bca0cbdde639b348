import { type ProvisioningEngine, stepPath } from '@centralino/contract';
import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { stepTitleKey } from '../../app/paths.ts';
import { StepBar } from './StepBar.tsx';
import { SubStepBar, subStepGroupOf } from './SubSteps.tsx';

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
  const path = stepPath(engine, step);
  const group = subStepGroupOf(path);
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t(stepTitleKey(path))}
      </Title>
      {group && <SubStepBar group={group} current={path} />}
      {children}
      <StepBar engine={engine} step={step} canAdvance={canAdvance} />
    </Stack>
  );
}
