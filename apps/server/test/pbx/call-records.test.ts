import { fromBase64 } from '@centralino/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { callAs, DB_KINDS, useTestApp } from '../helpers.ts';
import { amiPeer } from '../support/ami-peer.ts';

/**
 * Call records: Asterisk sends each finished call over AMI (cdr_manager); the console keeps it, and the default
 * Last calls card shows it. Against a loopback peer speaking AMI; the real Asterisk does the same in
 * test/asterisk/pbx.test.ts.
 */
const peer = amiPeer({ secret: 'cdr-secret', endpoints: [], contacts: [] });
const port = await peer.listen();
afterAll(() => peer.close());

/** What cdr_manager sends for an answered call from 202 to 201 (field names and formats of Asterisk 22). */
const record = (uniqueid: string, overrides: Record<string, string> = {}) => ({
  Event: 'Cdr',
  AccountCode: '',
  Source: '202',
  Destination: '201',
  DestinationContext: 'from-internal',
  CallerID: '"Bob Bianchi" <202>',
  Channel: 'PJSIP/202-00000001',
  DestinationChannel: 'PJSIP/201-00000002',
  LastApplication: 'Dial',
  LastData: 'PJSIP/201,30,tT',
  StartTime: '2026-11-27 09:15:02',
  AnswerTime: '2026-11-27 09:15:05',
  EndTime: '2026-11-27 09:16:47',
  Duration: '105',
  BillableSeconds: '102',
  Disposition: 'ANSWERED',
  AMAFlags: 'DOCUMENTATION',
  UniqueID: uniqueid,
  UserField: '',
  ...overrides,
});

describe.each(DB_KINDS)('call records (%s)', (kind) => {
  const t = useTestApp(kind, {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'cdr-secret' },
  });
  const call = callAs(t);
  /** The Last calls card (id 2) as the console previews it for a caller number. */
  const lastCalls = async (number: string) => {
    const card = ((await call('GET', '/api/cti/customer_card')).json() as { id: number; query: string }[]).find(
      (c) => c.id === 2,
    );
    const res = await call('POST', '/api/custcard/preview', {
      dbconn_id: 2,
      template: 'lastcalls',
      query: card?.query,
      number,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { rows: Record<string, string>[]; html: string };
  };

  it('keeps the records Asterisk sends and shows them on the Last calls card', async () => {
    // This console's AMI connection is up (the dashboard says so): events sent from now on reach it.
    await expect
      .poll(async () => (await call('GET', '/api/dashboard/users?offset=0&limit=1')).json().pbx?.connected, {
        timeout: 10_000,
      })
      .toBe(true);
    const unique = `${kind}-${Date.now()}`;
    peer.event(record(`${unique}.1`));
    // Unanswered calls are kept but not shown by the default card, which lists answered ones.
    peer.event(record(`${unique}.2`, { Disposition: 'NO ANSWER', BillableSeconds: '0', Source: '203' }));
    // An overlong value is cut to its column, not refused with the whole record.
    peer.event(record(`${unique}.3`, { Source: '204', LastData: 'x'.repeat(500) }));
    await expect.poll(async () => (await lastCalls('202')).rows.length, { timeout: 5_000 }).toBe(1);
    const { rows, html } = await lastCalls('202');
    expect(rows[0]).toMatchObject({
      date: '27/11/2026',
      time: '09:15:02',
      src: '202',
      dst: '201',
      duration: '105',
      billsec: '102',
      direction: 'in',
    });
    expect(fromBase64(html)).toContain('09:15:02');
    // The callee's card lists the same call, as an outgoing one of the caller's.
    expect((await lastCalls('201')).rows.map((r) => r.src)).toContain('202');
    expect((await lastCalls('203')).rows).toEqual([]);
    await expect.poll(async () => (await lastCalls('204')).rows.length, { timeout: 5_000 }).toBe(1);
  });
});
