// The signed-in frame and everything only it needs, as one chunk loaded after sign-in (lazyLayout.tsx):
// the complete Mantine stylesheet (it repeats the sign-in page's per-component files, identically, so
// the cascade is that of styles.css alone), modals, and the notifications view.
import '@mantine/core/styles.css';
import { ModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';
import { requestNotifications } from '../components/notificationsHost.tsx';
import { AppLayout } from './AppLayout.tsx';

export default function SignedInLayout() {
  // Screens may call Mantine's notifications directly; the view must be there for them.
  useEffect(requestNotifications, []);
  return (
    <ModalsProvider>
      <AppLayout />
    </ModalsProvider>
  );
}
