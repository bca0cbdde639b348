import { notifications } from '@mantine/notifications';
import { ApiError } from '../api/client.ts';
import i18n from '../i18n/index.ts';

export function notifySuccess(title: string, message?: string) {
  notifications.show({ color: 'teal', title, message: message ?? '', autoClose: 4000 });
}

/** Shows a failure; the server's own (already localised) explanation when it gave one. */
export function notifyError(title: string, error?: unknown) {
  const message =
    error instanceof ApiError
      ? error.body.detail
      : error instanceof Error
        ? error.message
        : i18n.t('errors.internal.detail');
  notifications.show({ color: 'red', title, message, autoClose: 8000 });
}
