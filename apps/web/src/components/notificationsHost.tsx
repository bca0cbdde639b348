import { lazy, Suspense, useSyncExternalStore } from 'react';

// Mantine's notifications (code and styles) are not part of the sign-in page: they load the first time
// something is notified (e.g. "session expired", shown on the sign-in page), or when the signed-in
// frame opens. A notification shown meanwhile waits in Mantine's store and appears once the view mounts.

const NotificationsView = lazy(() => import('./NotificationsView.tsx'));

let requested = false;
const listeners = new Set<() => void>();

/** Mounts the notifications view (and so downloads it) from now on. */
export function requestNotifications(): void {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function NotificationsHost() {
  const shown = useSyncExternalStore(
    subscribe,
    () => requested,
    () => false,
  );
  return shown ? (
    <Suspense fallback={null}>
      <NotificationsView />
    </Suspense>
  ) : null;
}
