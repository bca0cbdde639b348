import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { loadFullCatalogues } from '../i18n/index.ts';
import { useAuth } from './auth.tsx';

// The whole catalogue comes with the frame: the sign-in page had only its own sections (i18n/index.ts).
const loadSignedInLayout = () =>
  Promise.all([import('./SignedInLayout.tsx'), loadFullCatalogues()]).then(([module]) => module);
const SignedInLayout = lazy(loadSignedInLayout);

/**
 * Starts downloading the signed-in frame and the screen a sign-in lands on (`/`), while the sign-in
 * request is on its way: they arrive together rather than one after the other.
 */
export function preloadSignedIn(): void {
  void loadSignedInLayout().catch(() => undefined);
  void import('../features/wizard/HomeOrWizard.tsx').catch(() => undefined);
}

/**
 * Stands in for the real AppLayout in the router: the signed-in frame (navigation, apply banners, the
 * complete stylesheet, modals) downloads only once there is, or may be, a session. Signed out, it sends
 * the visitor to the sign-in page without downloading any of it.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const auth = useAuth();
  if (auth.status === 'signedOut') return <Navigate to="/login" replace />;
  return (
    <Suspense
      fallback={
        <Center mih="100vh">
          <Loader aria-label={t('app.loading')} />
        </Center>
      }
    >
      <SignedInLayout />
    </Suspense>
  );
}
