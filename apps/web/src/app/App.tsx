import './signInStyles.ts';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { ApiError } from '../api/client.ts';
import { NotificationsHost } from '../components/notificationsHost.tsx';
import { AuthProvider } from './auth.tsx';
import { createAppRouter } from './router.tsx';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });

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
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <NotificationsHost />
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
