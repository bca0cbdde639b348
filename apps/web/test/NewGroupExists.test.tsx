import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NewGroupModal } from '../src/features/cti/GroupsPage.tsx';
import i18n from '../src/i18n/index.ts';

function renderModal(existing: string[], answer: () => Response) {
  const fetch = vi.fn(async () => answer());
  vi.stubGlobal('fetch', fetch);
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <NewGroupModal opened onClose={() => {}} existing={existing} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return fetch;
}

function submit(name: string) {
  fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('cti.groups.name'))), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: i18n.t('cti.save') }));
}

describe('Create new group: a name that exists', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(['en', 'it'])('says the group exists, in any case, sending nothing (%s)', async (lang) => {
    await i18n.changeLanguage(lang);
    const fetch = renderModal(['Support'], () => new Response('{"id":2}', { status: 200 }));
    submit('support');
    expect(await screen.findByText(i18n.t('cti.groups.exists', { name: 'support' }))).toBeTruthy();
    expect(screen.queryByText(i18n.t('cti.groups.saved'))).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each(['en', 'it'])('says so when the server refuses the name as taken (%s)', async (lang) => {
    await i18n.changeLanguage(lang);
    const fetch = renderModal(
      [],
      () =>
        new Response(JSON.stringify({ code: 'group_exists', title: 'Group already exists', detail: 'x' }), {
          status: 409,
          headers: { 'content-type': 'application/json' },
        }),
    );
    submit('Sales');
    expect(await screen.findByText(i18n.t('cti.groups.exists', { name: 'Sales' }))).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(i18n.t('cti.groups.saved'))).toBeNull();
  });
});
