import { currentWizard } from '@centralino/contract';
import type { QueryClient } from '@tanstack/react-query';
import { dashboardApi } from '../features/dashboard/dashboardApi.ts';
import { engineQuery, wizardQuery } from '../features/wizard/useWizard.ts';

/**
 * Asks for what the first signed-in screen needs as soon as a key is known, instead of after the chunks
 * that ask for it have arrived one after the other: the engine and wizard state every screen reads, and on
 * `/` the dashboard's first users page. A key the server refuses signs out through the usual 401 path.
 */
export function warmSignedIn(queryClient: QueryClient, path: string): void {
  void queryClient.prefetchQuery(engineQuery);
  void queryClient
    .fetchQuery(wizardQuery)
    .then((states) => {
      if (path === '/' && !currentWizard(states).active) dashboardApi.askEarly();
    })
    .catch(() => undefined);
}
