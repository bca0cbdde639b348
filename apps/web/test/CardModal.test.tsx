import type { CardSource, CardTemplate, CustomerCard } from '@centralino/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardModal } from '../src/features/cards/CardModal.tsx';
import { toBase64 } from '../src/features/cards/cardsLogic.ts';
import i18n from '../src/i18n/index.ts';
import { renderThemed } from './renderThemed.tsx';

const sources: CardSource[] = [
  {
    id: 1,
    name: 'phonebook',
    type: 'centralino',
    host: null,
    port: null,
    user: null,
    has_password: false,
    builtin: true,
    creation: '2026-01-01T00:00:00.000Z',
  },
];
const templates: CardTemplate[] = [
  { name: 'identity', custom: false, html: '', color: 'red', builtin: true },
  { name: 'mycard', custom: true, html: '', color: null, builtin: false },
];
const card: CustomerCard = {
  id: 7,
  name: 'Identity',
  creation: '2026-01-01T00:00:00.000Z',
  query: toBase64('select * from phonebook where workphone = $NUMBER'),
  template: { name: 'mycard', custom: true },
  dbconn_id: 1,
  permission_id: 2_000_007,
  profiles: [2],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let calls: { method: string; url: string; body: unknown }[];

// Mantine's autosize Textarea listens to font loading, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method: init?.method ?? 'GET', url, body });
      if (url === '/api/cti/profiles') {
        return json([
          { id: 1, name: 'Base', macro_permissions: {} },
          { id: 2, name: 'Standard', macro_permissions: {} },
        ]);
      }
      if (url === '/api/custcard/preview') {
        return json({
          html: toBase64('<p>Lucia <script>alert(1)</script></p>'),
          columns: ['name'],
          rows: [{ name: 'Lucia' }],
          truncated: false,
          elapsed_ms: 4,
        });
      }
      return json({ ...card, ...body });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const button = (key: string) => screen.getByRole('button', { name: i18n.t(key) }) as HTMLButtonElement;

// A modal's first render takes seconds on a loaded 2-core machine.
describe('card modal', { timeout: 30_000 }, () => {
  it('keeps Save disabled while the query is empty', async () => {
    renderThemed(<CardModal card={card} sources={sources} templates={templates} onClose={() => {}} />);
    await waitFor(() => expect(calls.some((c) => c.url === '/api/cti/profiles')).toBe(true), { timeout: 10_000 });
    expect(button('cards.save').disabled).toBe(false);
    const query = screen.getByLabelText(new RegExp(i18n.t('cards.cards.modal.query')));
    fireEvent.change(query, { target: { value: '  ' } });
    expect(button('cards.save').disabled).toBe(true);
    expect(button('cards.cards.modal.preview').disabled).toBe(true);
  });

  it('previews with the test number and shows the card in a frame that runs nothing', async () => {
    renderThemed(<CardModal card={card} sources={sources} templates={templates} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(new RegExp(i18n.t('cards.cards.modal.number'))), {
      target: { value: '0721 100' },
    });
    fireEvent.click(button('cards.cards.modal.preview'));
    const frame = (await screen.findByTitle(i18n.t('cards.preview.frame'), undefined, {
      timeout: 10_000,
    })) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('Lucia');
    expect(screen.getByRole('table', { name: i18n.t('cards.preview.rowsTable') }).textContent).toContain('Lucia');
    expect(calls.find((c) => c.url === '/api/custcard/preview')?.body).toEqual({
      dbconn_id: '1',
      template: 'mycard_custom',
      query: card.query,
      number: '0721 100',
    });
  });

  it('saves the template as name_custom and the profiles chosen', async () => {
    const closed = vi.fn();
    renderThemed(<CardModal card={card} sources={sources} templates={templates} onClose={closed} />);
    fireEvent.click(button('cards.save'));
    await waitFor(() => expect(closed).toHaveBeenCalled(), { timeout: 10_000 });
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      url: '/api/cti/customer_card/7',
      body: { name: 'Identity', query: card.query, template: 'mycard_custom', dbconn_id: '1', profiles: ['2'] },
    });
  });
});
