import { type ProvisioningEngine, pbxLastApplyFailed, progressPercent, totalSteps } from '@centralino/contract';
import { Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconCheck } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { useApplyStatus } from '../pbx/useApplyStatus.ts';
import { canLeave } from './leaveGuard.ts';
import { useWizardMove } from './useWizard.ts';

export interface StepBarProps {
  engine: ProvisioningEngine;
  step: number;
  /** False keeps Next and Finalise disabled until the screen's own work is done. */
  canAdvance?: boolean;
}

/** Previous / Next / Finalise with the progress of the wizard (step × 100 / total steps). */
export function StepBar({ engine, step, canAdvance = true }: StepBarProps) {
  const { t } = useTranslation();
  const move = useWizardMove(engine);
  const total = totalSteps(engine);
  const percent = progressPercent(engine, step);
  const last = step >= total;
  // The server refuses to finalise over a failed apply (pbx_apply_failed); say so before the click.
  const applyFailed = pbxLastApplyFailed(useApplyStatus().data);
  const blockedId = useId();

  const go = async (status: 'true' | 'false', target: number) => {
    // Unsaved work on the screen is confirmed before the step moves, not after.
    if (!(await canLeave())) return;
    move.mutate({ status, step: target }, { onError: (error) => notifyError(t('wizard.saveError'), error) });
  };

  return (
    <Paper withBorder p="md" radius="md" data-testid="step-bar">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {t('wizard.stepOf', { step, total })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('wizard.progress', { percent })}
          </Text>
        </Group>
        <Progress value={percent} aria-label={t('wizard.progress', { percent })} />
        <Group justify="space-between" mt="xs">
          <WriteButton
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
            disabled={step <= 0 || move.isPending}
            onClick={() => void go('true', step - 1)}
          >
            {t('wizard.previous')}
          </WriteButton>
          {last ? (
            <WriteButton
              color="teal"
              leftSection={<IconCheck size={16} />}
              disabled={!canAdvance || applyFailed}
              aria-describedby={applyFailed ? blockedId : undefined}
              loading={move.isPending}
              onClick={() => void go('false', step)}
            >
              {t('wizard.finalise')}
            </WriteButton>
          ) : (
            <WriteButton
              rightSection={<IconArrowRight size={16} />}
              disabled={!canAdvance}
              loading={move.isPending}
              onClick={() => void go('true', step + 1)}
            >
              {t('wizard.next')}
            </WriteButton>
          )}
        </Group>
        {last && applyFailed && (
          <Text id={blockedId} size="sm" ta="right" data-testid="finalise-blocked">
            {t('wizard.finaliseBlocked')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
