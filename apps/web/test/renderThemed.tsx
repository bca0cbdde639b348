import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { makeTheme } from '../src/app/theme.ts';
import i18n from '../src/i18n/index.ts';

/** Renders a screen part as the console does: the console's theme, a query client and a router. */
export function renderThemed(children: ReactNode) {
  return render(
    <MantineProvider theme={makeTheme(i18n.t)}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
