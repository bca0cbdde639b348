import { pbxApplyIndicator } from '@centralino/contract';
import { Badge, Loader, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useApplyStatus } from './useApplyStatus.ts';

/**
 * Header badge: whether the PBX configuration is being applied, was applied, or failed to apply.
 * It is a status region reachable with Tab, so the keyboard reaches the failure's tooltip too.
 */
export function ApplyIndicator() {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const state = pbxApplyIndicator(status.data);
  if (state === 'none') return null;
  const badge = (color: string, icon: React.ReactNode, text: string) => (
    <Badge
      variant="light"
      color={color}
      leftSection={icon}
      data-testid="pbx-apply"
      role="status"
      tabIndex={0}
      // The visible text starts the name (WCAG 2.5.3); what the badge is about follows.
      aria-label={`${text} (${t('pbx.statusName')})`}
    >
      {text}
    </Badge>
  );
  if (state === 'applying') return badge('blue', <Loader size={10} aria-hidden />, t('pbx.applying'));
  if (state === 'applied') return badge('teal', <IconCheck size={12} aria-hidden />, t('pbx.applied'));
  return (
    <Tooltip
      label={status.data?.last?.error ?? ''}
      multiline
      w={360}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      {badge('red', <IconAlertTriangle size={12} aria-hidden />, t('pbx.failed'))}
    </Tooltip>
  );
}
