import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Loaded on demand by NotificationsHost. */
export default function NotificationsView() {
  // Bottom right: at the top they covered the close button of an open dialog.
  return <Notifications position="bottom-right" />;
}
