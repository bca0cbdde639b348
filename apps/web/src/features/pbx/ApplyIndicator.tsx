import { pbxApplyIndicator } from '@centralino/contract';
import { Badge, Loader, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useApplyStatus } from './useApplyStatus.ts';

/** Header badge: whether the PBX configuration is being applied, was applied, or failed to apply. */
export function ApplyIndicator() {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const state = pbxApplyIndicator(status.data);
  if (state === 'none') return null;
  if (state === 'applying') {
    return (
      <Badge variant="light" color="blue" leftSection={<Loader size={10} />} data-testid="pbx-apply">
        {t('pbx.applying')}
      </Badge>
    );
  }
  if (state === 'applied') {
    return (
      <Badge variant="light" color="teal" leftSection={<IconCheck size={12} />} data-testid="pbx-apply">
        {t('pbx.applied')}
      </Badge>
    );
  }
  return (
    <Tooltip label={status.data?.last?.error ?? ''} multiline w={360} withArrow>
      <Badge variant="light" color="red" leftSection={<IconAlertTriangle size={12} />} data-testid="pbx-apply">
        {t('pbx.failed')}
      </Badge>
    </Tooltip>
  );
}
