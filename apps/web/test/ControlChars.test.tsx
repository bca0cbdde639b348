import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AddUserModal } from '../src/features/users/AddUserModal.tsx';
import i18n from '../src/i18n/index.ts';

describe('Add user: control characters in the full name', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it.each([
    ['en', /must not contain control characters/i],
    ['it', /non deve contenere caratteri di controllo/i],
  ] as const)('says why (%s) and sends nothing', async (lang, text) => {
    await i18n.changeLanguage(lang);
    const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
    vi.stubGlobal('fetch', fetch);
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <AddUserModal opened onClose={() => {}} onCreated={() => {}} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('addUser.username'))), { target: { value: 'mario' } });
    fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('addUser.fullname'))), {
      target: { value: 'Mario\u0000Rossi' },
    });
    fireEvent.click(screen.getByRole('button', { name: i18n.t('addUser.submit') }));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.queryByText(i18n.t('addUser.fullnameRequired'))).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
