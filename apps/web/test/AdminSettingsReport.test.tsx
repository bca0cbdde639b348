import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminSettingsPage, checkPasswordForm } from '../src/features/admin-settings/AdminSettingsPage.tsx';
import { ReportPage } from '../src/features/report/ReportPage.tsx';
import i18n from '../src/i18n/index.ts';

type Handler = (init: RequestInit | undefined) => { status: number; body: unknown };
let routes: Record<string, Handler>;
let calls: { method: string; path: string; body: unknown }[];

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  routes = {
    'GET /api/provisioning/engine': () => ({ status: 200, body: 'tancredi' }),
    'GET /api/configuration/wizard': () => ({ status: 200, body: [{ step: 13, status: 'false' }] }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(input);
      calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const handler = routes[`${method} ${path}`];
      const { status, body } = handler
        ? handler(init)
        : { status: 404, body: { title: 'Not found', detail: 'nothing here', code: 'not_found' } };
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(page: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MantineProvider>
        <Notifications />
        <MemoryRouter>{page}</MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

const posts = () => calls.filter((c) => c.method === 'POST');

describe('checkPasswordForm', () => {
  it.each([
    ['', '', '', { current: 'required', password: 'required', confirm: 'required' }],
    ['old-pass', 'short', 'short', { password: 'tooShort' }],
    ['old-pass', 'long-enough', 'long-enougH', { confirm: 'mismatch' }],
    ['old-pass', 'long-enough', '', { confirm: 'required' }],
    ['', 'long-enough', 'long-enough', { current: 'required' }],
    ['old-pass', 'long-enough', 'long-enough', {}],
    ['old-pass', 'x'.repeat(129), 'x'.repeat(129), { password: 'tooShort' }],
  ])('%j / %j / %j', (current, password, confirmation, expected) => {
    expect(checkPasswordForm(current, password, confirmation)).toEqual(expected);
  });
});

describe('/admin/settings', () => {
  const fill = (label: string, value: string) =>
    fireEvent.change(screen.getByLabelText(label, { exact: false, selector: 'input' }), { target: { value } });

  it('warns that other sessions are signed out and refuses a mismatch without calling the server', async () => {
    renderPage(<AdminSettingsPage />);
    expect(await screen.findByRole('heading', { name: 'Administrator password' })).toBeTruthy();
    expect(screen.getByText('Other sessions will be signed out')).toBeTruthy();

    fill('New password', 'first-password');
    fill('Confirm password', 'other-password');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    });
    expect(screen.getByText('The passwords do not match')).toBeTruthy();
    expect(posts()).toEqual([]);

    fill('New password', 'short');
    fill('Confirm password', 'short');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    });
    expect(screen.getByText('Use at least 8 characters')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('sends the new password and says Password changed', async () => {
    routes['POST /api/users/admin/password'] = () => ({ status: 201, body: { success: true } });
    renderPage(<AdminSettingsPage />);
    await screen.findByRole('heading', { name: 'Administrator password' });
    fill('Current password', 'the-old-pass');
    fill('New password', 'brand-new-pass');
    fill('Confirm password', 'brand-new-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeTruthy();
    expect(posts()).toEqual([
      {
        method: 'POST',
        path: '/api/users/admin/password',
        body: { password: 'brand-new-pass', current_password: 'the-old-pass' },
      },
    ]);
  });

  it('asks for the current password before sending, and shows a wrong one at its field', async () => {
    routes['POST /api/users/admin/password'] = () => ({
      status: 403,
      body: {
        title: 'Current password is wrong',
        detail: 'The current password (or code) is not right.',
        code: 'current_password_wrong',
      },
    });
    renderPage(<AdminSettingsPage />);
    await screen.findByRole('heading', { name: 'Administrator password' });
    fill('New password', 'brand-new-pass');
    fill('Confirm password', 'brand-new-pass');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    });
    expect(screen.getByText('This field is required')).toBeTruthy();
    expect(posts()).toEqual([]);
    fill('Current password', 'not-it');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The current password is not right')).toBeTruthy();
    expect(screen.getByText('Password error')).toBeTruthy();
  });

  it('says Password error when the server refuses', async () => {
    routes['POST /api/users/admin/password'] = () => ({
      status: 400,
      body: { title: 'Invalid request', detail: 'too weak', code: 'validation' },
    });
    renderPage(<AdminSettingsPage />);
    await screen.findByRole('heading', { name: 'Administrator password' });
    fill('Current password', 'the-old-pass');
    fill('New password', 'brand-new-pass');
    fill('Confirm password', 'brand-new-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password error')).toBeTruthy();
    expect(screen.getByText('too weak')).toBeTruthy();
  });

  it('is the last wizard step, with Finalise enabled', async () => {
    routes['GET /api/configuration/wizard'] = () => ({ status: 200, body: [{ step: 13, status: 'true' }] });
    renderPage(<AdminSettingsPage />);
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    const bar = screen.getByTestId('step-bar');
    expect(within(bar).getByText('Step 13 of 13')).toBeTruthy();
    expect((within(bar).getByRole('button', { name: 'Finalise' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('/admin/report', () => {
  const rows = Array.from({ length: 45 }, (_, i) => ({
    username: `user${i}`,
    displayname: `User ${i}`,
    password: i % 2 ? `pw-${i}` : null,
    default_extension: String(200 + i),
    voicemailpwd: String(1000 + i),
  }));

  it('lists 20 users first with the password column for the local directory, then 20 more', async () => {
    routes['GET /api/final'] = () => ({ status: 200, body: rows });
    routes['GET /api/configuration/userprovider'] = () => ({ status: 200, body: { configured: 1, local: 1 } });
    renderPage(<ReportPage />);
    expect(await screen.findAllByTestId('report-row')).toHaveLength(20);
    const first = screen.getAllByTestId('report-row')[1] as HTMLElement;
    expect(within(first).getByTestId('report-extension').textContent).toBe('201');
    expect(within(first).getByTestId('report-fullname').textContent).toBe('User 1');
    expect(within(first).getByTestId('report-username').textContent).toBe('user1');
    expect(within(first).getByTestId('report-voicemail').textContent).toBe('1001');
    expect(within(first).getByTestId('report-password').textContent).toBe('pw-1');
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(screen.getAllByTestId('report-row')).toHaveLength(40);
    expect(screen.getByRole('button', { name: 'Print final report' })).toBeTruthy();
  });

  it('hides the password column for an external directory', async () => {
    routes['GET /api/final'] = () => ({ status: 200, body: rows.slice(0, 3) });
    routes['GET /api/configuration/userprovider'] = () => ({
      status: 200,
      body: { configured: 1, type: 'ldap', local: 0 },
    });
    renderPage(<ReportPage />);
    expect(await screen.findAllByTestId('report-row')).toHaveLength(3);
    expect(screen.queryAllByTestId('report-password')).toHaveLength(0);
    expect(screen.queryByText('pw-1')).toBeNull();
  });
});
