import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeTheme } from '../src/app/theme.ts';
import { SubStepsPage } from '../src/features/wizard/SubSteps.tsx';
import i18n from '../src/i18n/index.ts';

function renderThemed(children: React.ReactNode) {
  return render(
    <MantineProvider theme={makeTheme(i18n.t)}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the parent screens of two wizard steps', () => {
  it.each([
    ['trunks', 'en'],
    ['routes', 'en'],
    ['trunks', 'it'],
    ['routes', 'it'],
  ] as const)('/%s has its title as the one top-level heading (%s)', async (group, lang) => {
    await i18n.changeLanguage(lang);
    renderThemed(<SubStepsPage group={group} />);
    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings.map((h) => h.textContent)).toEqual([i18n.t(`wizard.subSteps.${group}.title`)]);
  });
});
