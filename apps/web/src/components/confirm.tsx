import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import i18n from '../i18n/index.ts';

export interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
}

/** Opens a confirmation dialog; resolves true on confirm, false on cancel or close. */
export function confirmAction({ title, message, confirmLabel, danger }: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean) => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    modals.openConfirmModal({
      title,
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: confirmLabel ?? i18n.t('common.continue'), cancel: i18n.t('common.cancel') },
      confirmProps: { color: danger ? 'red' : undefined },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
