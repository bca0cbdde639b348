import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { ApiError } from '../api/client.ts';
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
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          {/* Bottom right: at the top they covered the close button of an open dialog. */}
          <Notifications position="bottom-right" />
          <AuthProvider>
            <RouterProvider router={router} />
          </AuthProvider>
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
