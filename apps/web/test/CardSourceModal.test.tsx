import type { CardSource } from '@centralino/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SourceModal } from '../src/features/cards/SourceModal.tsx';
import i18n from '../src/i18n/index.ts';
import { renderThemed } from './renderThemed.tsx';

const source: CardSource = {
  id: 3,
  name: 'crm',
  type: 'mysql',
  host: '192.168.1.20',
  port: 3306,
  user: 'cti',
  has_password: true,
  builtin: false,
  creation: '2026-01-01T00:00:00.000Z',
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let calls: { method: string; url: string; body: unknown }[];
let checkAnswer: () => Response;

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  checkAnswer = () => json({ status: true, elapsed_ms: 3 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init?.method ?? 'GET', url, body });
      if (url === '/api/cti/dbconn/type') return json({ mysql: 'MySQL', postgres: 'PostgreSQL' });
      if (url === '/api/dbconn/test') return checkAnswer();
      if (url === '/api/cti/dbconn/3') return json({ ...source, ...body, port: Number(body.port) });
      return json({}, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const save = () => screen.getByRole('button', { name: i18n.t('cards.save') }) as HTMLButtonElement;
const check = () => screen.getByRole('button', { name: i18n.t('cards.sources.modal.check') }) as HTMLButtonElement;

// A modal's first render takes seconds on a loaded 2-core machine.
describe('customer-card source modal', { timeout: 30_000 }, () => {
  it('enables Save only after a successful check, and again needs one after a change', async () => {
    renderThemed(<SourceModal source={source} onClose={() => {}} />);
    expect(save().disabled).toBe(true);
    fireEvent.click(check());
    expect(
      await screen.findByText(i18n.t('cards.sources.modal.verified'), undefined, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(save().disabled).toBe(false);
    // The stored source is checked by id, without a password (the stored one is used).
    expect(calls.find((c) => c.url === '/api/dbconn/test')?.body).toEqual({
      id: 3,
      type: 'mysql',
      host: '192.168.1.20',
      port: '3306',
      name: 'crm',
      user: 'cti',
    });
    fireEvent.change(screen.getByLabelText(i18n.t('cards.sources.modal.port')), { target: { value: '3307' } });
    expect(save().disabled).toBe(true);
  });

  it('keeps the stored password when the field is left empty on modify', async () => {
    const closed = vi.fn();
    renderThemed(<SourceModal source={source} onClose={closed} />);
    expect(screen.getByPlaceholderText(i18n.t('cards.sources.modal.passwordKept'))).toBeTruthy();
    fireEvent.click(check());
    await waitFor(() => expect(save().disabled).toBe(false), { timeout: 10_000 });
    fireEvent.click(save());
    await waitFor(() => expect(closed).toHaveBeenCalled(), { timeout: 10_000 });
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/cti/dbconn/3');
    expect(put?.body).not.toHaveProperty('pass');
  });

  it('shows why a check failed and keeps Save disabled', async () => {
    checkAnswer = () =>
      json(
        {
          code: 'card_source_failed',
          title: 'Check failed',
          detail: 'The connection check failed. Access denied for user cti.',
        },
        503,
      );
    renderThemed(<SourceModal source={source} onClose={() => {}} />);
    fireEvent.click(check());
    expect(
      await screen.findByText('The connection check failed. Access denied for user cti.', undefined, {
        timeout: 10_000,
      }),
    ).toBeTruthy();
    expect(save().disabled).toBe(true);
  });

  it('a new source needs type, host, port, name and user before the check', async () => {
    renderThemed(<SourceModal onClose={() => {}} />);
    expect((screen.getByLabelText(i18n.t('cards.sources.modal.port')) as HTMLInputElement).value).toBe('3306');
    expect(check().disabled).toBe(true);
    for (const [label, value] of [
      ['host', '127.0.0.1'],
      ['name', 'crm'],
      ['user', 'root'],
    ]) {
      fireEvent.change(screen.getByLabelText(i18n.t(`cards.sources.modal.${label}`)), { target: { value } });
    }
    expect(check().disabled).toBe(false);
    fireEvent.change(screen.getByLabelText(i18n.t('cards.sources.modal.port')), { target: { value: '' } });
    expect(check().disabled).toBe(true);
  });
});
