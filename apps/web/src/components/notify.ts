import type { NotificationData } from '@mantine/notifications';
import { ApiError } from '../api/client.ts';
import i18n from '../i18n/index.ts';
import { requestNotifications } from './notificationsHost.tsx';

/** Shows a notification; Mantine's notifications are downloaded the first time (see notificationsHost). */
function show(data: NotificationData) {
  requestNotifications();
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(data));
}

export function notifySuccess(title: string, message?: string) {
  show({ color: 'teal', title, message: message ?? '', autoClose: 4000 });
}

/** Shows a failure; the server's own (already localised) explanation when it gave one. */
export function notifyError(title: string, error?: unknown) {
  const message =
    error instanceof ApiError
      ? error.body.detail
      : error instanceof Error
        ? error.message
        : i18n.t('errors.internal.detail');
  show({ color: 'red', title, message, autoClose: 8000 });
}

/** A read that reports its failure with the spec's message (notifyError) and still fails (for the query's error state). */
export function reported<T>(title: string, call: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await call();
    } catch (error) {
      notifyError(title, error);
      throw error;
    }
  };
}
