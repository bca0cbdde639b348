import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AddUserModal } from '../src/features/users/AddUserModal.tsx';
import i18n from '../src/i18n/index.ts';

function renderModal() {
  const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
  vi.stubGlobal('fetch', fetch);
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AddUserModal opened onClose={() => {}} onCreated={() => {}} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetch;
}

describe('Add user: reserved names', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('en');
  });

  it.each(['en', 'it'])('says admin is reserved for the console administrator (%s), sending nothing', async (lang) => {
    await i18n.changeLanguage(lang);
    const fetch = renderModal();
    fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('addUser.username'))), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('addUser.fullname'))), { target: { value: 'Fake' } });
    fireEvent.click(screen.getByRole('button', { name: i18n.t('addUser.submit') }));
    expect(await screen.findByText(i18n.t('addUser.usernameReserved'))).toBeTruthy();
    expect(screen.queryByText(i18n.t('addUser.usernameInvalid'))).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
