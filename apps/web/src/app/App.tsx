import './signInStyles.ts';
import './skip-link.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { ApiError } from '../api/client.ts';
import { NotificationsHost } from '../components/notificationsHost.tsx';
import { AuthProvider } from './auth.tsx';
import { createAppRouter } from './router.tsx';
import { cssVariablesResolver, makeTheme } from './theme.ts';

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // A 4xx will not change by retrying; a network blip might.
          queries: {
            retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400),
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  const [router] = useState(createAppRouter);
  // Modals live in the signed-in frame (SignedInLayout.tsx); notifications load on demand.
  const { t } = useTranslation();
  const theme = useMemo(() => makeTheme(t), [t]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <NotificationsHost />
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
