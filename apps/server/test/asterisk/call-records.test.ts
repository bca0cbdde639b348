// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecordSpoolDir, parseCsvLine, splitRecords } from '../../src/pbx/call-records.ts';
import { type AsteriskLab, skipReason, startAsteriskLab } from '../support/asterisk.ts';

/**
 * Call records in a real Asterisk (issue 27): cdr_custom appends each finished call to the console's spool file, so
 * a call that ends while the console is stopped is in the `cdr` table, and on the Last calls card, once it is
 * started again, exactly once.
 */

type Status = { state: string; last: { ok: boolean; error: string | null } | null };
type Row = Record<string, string>;

describe.skipIf(skipReason !== '')('call records in a real Asterisk', { timeout: 180_000 }, () => {
  let lab: AsteriskLab;

  beforeAll(async () => {
    lab = await startAsteriskLab();
  }, 180_000);

  afterAll(async () => {
    await lab?.close();
  }, 60_000);

  /** The Last calls card (id 2) as the console previews it for a number. */
  const lastCalls = async (number: string) => {
    const cards = (await lab.api<{ id: number; query: string }[]>('GET', '/api/cti/customer_card')).body;
    const res = await lab.api<{ rows: Row[] }>('POST', '/api/custcard/preview', {
      dbconn_id: 2,
      template: 'lastcalls',
      query: cards.find((c) => c.id === 2)?.query,
      number,
    });
    expect(res.status).toBe(200);
    return res.body.rows;
  };

  /** A call into `test-cdr` from a Local channel: answered, two seconds long, from the given caller. */
  const placeCall = async (extension: string, callerId: string) => {
    // Quotes escaped for the CLI, commas for the application's arguments (and that backslash for the CLI).
    const value = callerId.replaceAll('"', '\\"').replaceAll(',', '\\\\,');
    await lab.rx(`dialplan add extension "${extension},1,Set(CALLERID(all)=${value})" into test-cdr`);
    await lab.rx(`dialplan add extension ${extension},2,Answer into test-cdr`);
    await lab.rx(`dialplan add extension ${extension},3,Wait(2) into test-cdr`);
    await lab.rx(`dialplan add extension ${extension},4,Hangup into test-cdr`);
    await lab.rx(`channel originate Local/${extension}@test-cdr application Wait 5`);
  };

  it('keeps a call that ended while the console was stopped, once', async () => {
    const status = await lab.until(
      'the first apply',
      async () => {
        const s = (await lab.api<Status>('GET', '/api/pbx/apply')).body;
        return s.state === 'idle' && s.last ? s : undefined;
      },
      90_000,
    );
    expect(status.last?.ok, status.last?.error ?? '').toBe(true);
    expect(await lab.rx('module show like cdr_custom')).toContain('cdr_custom.so');
    // `channel originate` is not among the modules an installation loads.
    await lab.rx('module load res_clioriginate.so');

    // A call while the console runs reaches the card within a second or two of its end.
    await placeCall('501', '"Running" <301>');
    const placed = Date.now();
    const first = await lab.until(
      'the call made while the console runs',
      async () => (await lastCalls('501')).find((r) => r.dst === '501'),
      20_000,
    );
    // The call lasts two seconds; what is past that is the way from Asterisk to the card.
    console.log(`on the card ${Date.now() - placed} ms after the call was placed:`, JSON.stringify(first));
    // Both halves of the Local channel have a record: wait for the second (a loaded machine takes it in a later
    // pass), so the count below is of every record, not of the first pass.
    const both = await lab.until(
      'both halves of the call made while the console runs',
      async () => {
        const found = await lastCalls('501');
        return found.length >= 2 ? found : undefined;
      },
      20_000,
    );
    const before = both.map((r) => r.uniqueid).sort();

    await lab.stopConsole();
    // Commas, quotes and characters beyond ASCII in the caller's name.
    await placeCall('502', '"Zoë, “Ñandú” 李" <302>');
    const spool = callRecordSpoolDir(lab.dirs.etc);
    const live = path.join(spool, 'cdr.csv');
    // Polled here: lab.until stops at a console that is not running.
    let written: string[][] = [];
    for (let tries = 0; tries < 200 && written.filter((l) => l[4] === '502').length < 2; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      const text = fs.existsSync(live) ? fs.readFileSync(live) : Buffer.alloc(0);
      // Both halves of the Local channel (the fifth field is the destination).
      written = splitRecords(text).records.map((r) => parseCsvLine(r.toString()) ?? []);
    }
    console.log('spool file written while the console was stopped:', fs.readFileSync(live, 'utf8'));
    const uniqueids = written.map((l) => l[15]).sort();

    await lab.startConsole();
    const rows = await lab.until(
      'the call made while the console was stopped',
      async () => {
        const found = await lastCalls('502');
        return found.length >= 2 ? found : undefined;
      },
      20_000,
    );
    // Every record Asterisk wrote meanwhile, each once.
    expect(rows.map((r) => r.uniqueid).sort()).toEqual(uniqueids);
    const caller = rows.find((r) => r.src === '302');
    expect(caller).toMatchObject({ dst: '502', disposition: 'ANSWERED', clid: '"Zoë, “Ñandú” 李" <302>' });
    expect(Number(caller?.duration)).toBeGreaterThanOrEqual(2);
    // The first call is not taken in a second time.
    expect((await lastCalls('501')).map((r) => r.uniqueid).sort()).toEqual(before);
    // The folder is emptied once the records are in.
    await lab.until('the spool folder to empty', async () => fs.readdirSync(spool).length === 0, 20_000);
    const problems = lab
      .messages()
      .split('\n')
      .filter((l) => /\b(WARNING|ERROR)\[/.test(l) && /cdr/i.test(l));
    expect(problems).toEqual([]);
  });
});
