import { type PbxApplyRecord, type PbxApplyStatus, pbxApplyRecordSchema } from '@centralino/contract';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApplyFailureBanner } from '../src/features/pbx/ApplyFailureBanner.tsx';
import { ApplyWarningsBanner } from '../src/features/pbx/ApplyWarningsBanner.tsx';
import { FinalPage } from '../src/features/wizard/FinalPage.tsx';
import { StepBar } from '../src/features/wizard/StepBar.tsx';
import i18n from '../src/i18n/index.ts';

/** A record as the server sends it (the schema fills what a test leaves out). */
const record = (overrides: Partial<PbxApplyRecord> = {}): PbxApplyRecord =>
  pbxApplyRecordSchema.parse({
    startedAt: 1,
    finishedAt: 2,
    durationMs: 1,
    ok: true,
    error: null,
    problems: [],
    changed: [],
    reloaded: [],
    restartRequired: false,
    ...overrides,
  });

const refused = record({
  ok: false,
  error: 'The configuration was not written: 2 problem(s)\n…',
  problems: [
    {
      file: 'extensions.conf',
      line: 339,
      object: { kind: 'inbound_route', id: '0612345101', label: '0612345101 (Main)' },
      message: '[ext-did-0002] Goto: extension "201" does not exist in context "ext-local"',
    },
    {
      file: 'pjsip.trunks.conf',
      line: 12,
      object: { kind: 'trunk', id: '2', label: 'Provider2' },
      message: 'endpoint [Provider2] transport = transport-sctp: no transport named "transport-sctp"',
    },
  ],
});

let status: PbxApplyStatus;
let calls: { method: string; path: string }[];

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  status = { state: 'idle', directory: '/var/lib/centralino/asterisk', engine: 'disabled', last: refused };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = String(input);
      calls.push({ method, path });
      if (path === '/api/pbx/apply') {
        const answer = method === 'POST' ? { ...status, state: 'pending' } : status;
        return new Response(JSON.stringify(answer), {
          status: method === 'POST' ? 202 : 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      if (path === '/api/configuration/wizard' && method === 'POST') {
        return new Response(JSON.stringify({ step: 13, status: 'false' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      return new Response(JSON.stringify({ title: 'Not found', detail: 'nothing here', code: 'not_found' }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderAt(node: ReactNode, path = '/extensions') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MantineProvider>
        <Notifications />
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  {node}
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('the apply failure banner', () => {
  it('is absent while the last apply succeeded', async () => {
    status = { ...status, last: record() };
    renderAt(<ApplyFailureBanner />);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/pbx/apply')).toBe(true));
    await act(async () => {});
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('names each object at fault, says what to do and links to the screen that fixes it', async () => {
    renderAt(<ApplyFailureBanner />);
    const banner = await screen.findByRole('alert', { name: 'The PBX configuration was not applied' });
    expect(within(banner).getByText(/These 2 objects stop the new configuration/)).toBeTruthy();
    const items = within(banner).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain(
      'Inbound route 0612345101 (Main): choose another destination for this route or remove the route.',
    );
    expect(items[0]?.textContent).toContain('extension "201" does not exist');
    expect(items[1]?.textContent).toContain('VoIP provider Provider2: fix this provider');

    const link = within(banner).getByRole('link', { name: 'Open inbound routes' });
    expect(link.getAttribute('href')).toBe('/routes/inbound');
    expect(within(banner).getByRole('link', { name: 'Open VoIP providers' }).getAttribute('href')).toBe('/trunks/voip');
    await act(async () => {
      fireEvent.click(link);
    });
    expect(screen.getByTestId('location').textContent).toBe('/routes/inbound');
    // Still there on the next screen: it stays until an apply succeeds.
    expect(screen.getByRole('alert')).toBeTruthy();
  });

  it('applies again on request', async () => {
    renderAt(<ApplyFailureBanner />);
    const banner = await screen.findByRole('alert');
    await act(async () => {
      fireEvent.click(within(banner).getByRole('button', { name: 'Apply again' }));
    });
    await waitFor(() => expect(calls).toContainEqual({ method: 'POST', path: '/api/pbx/apply' }));
    // While the new apply waits or runs, the banner stays and says so.
    expect(await within(banner).findByText('Applying the configuration…')).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'Apply again' }).hasAttribute('disabled')).toBe(true);
  });

  it('shows the failure itself when it was not a refusal of the check', async () => {
    status = { ...status, last: record({ ok: false, error: 'EACCES: permission denied, rename pjsip.conf' }) };
    renderAt(<ApplyFailureBanner />);
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText(/could not be written or loaded/)).toBeTruthy();
    expect(within(banner).getByText('EACCES: permission denied, rename pjsip.conf')).toBeTruthy();
  });

  it('speaks Italian', async () => {
    await i18n.changeLanguage('it');
    renderAt(<ApplyFailureBanner />);
    const banner = await screen.findByRole('alert', { name: 'La configurazione del centralino non è stata applicata' });
    expect(banner.textContent).toContain('Rotta in ingresso 0612345101 (Main)');
    expect(within(banner).getByRole('link', { name: 'Apri le rotte in ingresso' })).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'Applica di nuovo' })).toBeTruthy();
  });
});

describe('Finalise and the final screen after a failed apply', () => {
  it('keeps Finalise disabled with the reason', async () => {
    renderAt(<StepBar engine="tancredi" step={13} />, '/configurations/preferences');
    const reason = await screen.findByTestId('finalise-blocked');
    const finalise = screen.getByRole('button', { name: 'Finalise' });
    expect(finalise.hasAttribute('disabled')).toBe(true);
    expect(finalise.getAttribute('aria-describedby')).toBe(reason.id);
    expect(reason.textContent).toContain('Finalise is not possible while the last apply');
  });

  it('enables Finalise once the last apply succeeded', async () => {
    status = { ...status, last: record() };
    renderAt(<StepBar engine="tancredi" step={13} />, '/configurations/preferences');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/pbx/apply')).toBe(true));
    await act(async () => {});
    expect(screen.getByRole('button', { name: 'Finalise' }).hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('finalise-blocked')).toBeNull();
  });

  it('/final shows the failure, never "Wizard completed"', async () => {
    renderAt(<FinalPage />, '/final');
    expect(await screen.findByRole('heading', { name: 'The PBX configuration was not applied' })).toBeTruthy();
    expect(screen.queryByText('Wizard completed')).toBeNull();
    expect(screen.queryByText(/Your phone system is configured/)).toBeNull();
    expect(screen.getByTestId('final-apply-failure').textContent).toContain('Inbound route 0612345101 (Main)');
  });

  it('/final says completed when the last apply succeeded', async () => {
    status = { ...status, last: record() };
    renderAt(<FinalPage />, '/final');
    expect(await screen.findByRole('heading', { name: 'Wizard completed' })).toBeTruthy();
  });
});

describe('the apply warnings banner', () => {
  const warned = record({
    warnings: [
      'Asterisk did not load how it recognises calls from trunk carrier: check that its host sip.carrier.example resolves (see its log); incoming calls from this provider are refused meanwhile',
    ],
  });

  it('is absent when Asterisk took up everything, and while an apply failed (the failure banner speaks)', async () => {
    status = { ...status, last: record() };
    const { unmount } = renderAt(<ApplyWarningsBanner />);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/pbx/apply')).toBe(true));
    await act(async () => {});
    expect(screen.queryByTestId('pbx-apply-warnings')).toBeNull();
    unmount();
    status = { ...status, last: { ...refused, warnings: warned.warnings } };
    renderAt(<ApplyWarningsBanner />);
    await act(async () => {});
    expect(screen.queryByTestId('pbx-apply-warnings')).toBeNull();
  });

  it('says what Asterisk did not take up, in the user language, and applies again', async () => {
    await i18n.changeLanguage('it');
    status = { ...status, last: warned };
    renderAt(<ApplyWarningsBanner />);
    const banner = await screen.findByRole('status', { name: 'Asterisk non sta usando tutta la configurazione' });
    expect(within(banner).getByText(/trunk carrier: check that its host sip\.carrier\.example resolves/)).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Applica di nuovo' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/pbx/apply')).toBe(true));
  });
});
