import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Loaded on demand by NotificationsHost. */
export default function NotificationsView() {
  return <Notifications position="top-right" />;
}
