import { afterEach, describe, expect, it } from 'vitest';
import { csvImportHooks } from '../src/features/csv/service.ts';
import { JobRunner } from '../src/jobs/runner.ts';
import { DB_KINDS, login, startApp, type TestApp, useTestDatabase } from './helpers.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const USERS = 600; // three chunks of 250

describe.each(DB_KINDS)('a CSV import cut short by a crash (%s)', (kind) => {
  const testDb = useTestDatabase(kind);
  const apps: TestApp[] = [];
  afterEach(async () => {
    csvImportHooks.afterChunk = async () => {};
    for (const a of apps.splice(0)) await a.close();
  });

  it("says an import stopped by an error in the reader's language, with what it saved", async () => {
    const app = await startApp(testDb.current);
    apps.push(app);
    const headers = await login(app.app);
    const call = (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
      app.app.inject({ method, url, headers: { ...headers, 'accept-language': lang }, payload });
    await call('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    csvImportHooks.afterChunk = async (chunks) => {
      if (chunks === 1) throw new Error('disk full');
    };
    const file = Array.from({ length: USERS }, (_, i) => `stop${i},Stop ${i},${6000 + i}`).join('\n');
    expect((await call('POST', '/api/csv/csvimport', { file: b64(file) })).statusCode).toBe(200);
    const status = async (lang: string) => {
      for (let i = 0; i < 500; i++) {
        const body = (await call('GET', '/api/csv/csvimport', undefined, lang)).json();
        if (body.result === -1 || body.result === 100) return body;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the import did not end');
    };
    expect((await status('en')).failures).toEqual([
      {
        line: 0,
        username: '',
        message: expect.stringMatching(/^The import stopped on an error after saving 250 users: .*disk full/),
      },
    ]);
    expect((await status('it')).failures[0].message).toMatch(
      /^L'importazione si è fermata per un errore dopo aver salvato 250 utenti: .*disk full/,
    );
  });

  it('reports what it committed after the restart, and a re-run finds those rows unchanged', async () => {
    const first = await startApp(testDb.current);
    apps.push(first);
    const headers = await login(first.app);
    const call = (app: TestApp, method: 'GET' | 'POST', url: string, h: object, payload?: object, lang = 'en') =>
      app.app.inject({ method, url, headers: { ...h, 'accept-language': lang }, payload });
    expect((await call(first, 'POST', '/api/configuration/mode', headers, { mode: 'legacy' })).statusCode).toBe(200);
    for (
      let i = 0;
      i < 100 && (await call(first, 'GET', '/api/configuration/userprovider', headers)).json().configured !== 1;
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const file = Array.from({ length: USERS }, (_, i) => `user${i},User ${i},${2000 + i}`).join('\n');

    // The process "stops" after the second chunk: the job never goes on.
    let stopped!: () => void;
    const reached = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    let release!: (e: Error) => void;
    csvImportHooks.afterChunk = async (chunks) => {
      if (chunks < 2) return;
      stopped();
      await new Promise<void>((_, reject) => {
        release = reject;
      });
    };
    expect((await call(first, 'POST', '/api/csv/csvimport', headers, { file: b64(file) })).statusCode).toBe(200);
    await reached;

    // Next start: the job is found interrupted and keeps its committed counts.
    const second = await startApp(testDb.current);
    apps.push(second);
    // The first process's runner still beats (it only hangs here): a dead process is one silent past any limit.
    await new JobRunner(second.database.db).failInterrupted({ staleMs: 0 });
    const h2 = await login(second.app);
    for (const lang of ['en', 'it']) {
      const status = await call(second, 'GET', '/api/csv/csvimport', h2, undefined, lang);
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json()).toMatchObject({ result: -1, created: 500, updated: 0, unchanged: 0, interrupted: true });
      expect(status.json().failures).toHaveLength(1);
      expect(status.json().failures[0].message).toMatch(
        lang === 'en' ? /interrupted.*500 users/ : /interrotta.*500 utenti/,
      );
    }
    const stored = await second.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('username', 'like', 'user%')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(500);

    // The first process's job is gone for good (its failure must not change the stored counts).
    csvImportHooks.afterChunk = async () => {};
    release(new Error('process killed'));
    await first.app.close().catch(() => {});
    const after = (await call(second, 'GET', '/api/csv/csvimport', h2)).json();
    expect(after).toMatchObject({ created: 500 });

    // Importing the same file again: the saved rows are unchanged, the rest are created.
    const preview = (await call(second, 'POST', '/api/csv/csvimport/preview', h2, { file: b64(file) })).json();
    expect(preview).toMatchObject({ create: 100, update: 0, unchanged: 500, reject: 0 });
    expect((await call(second, 'POST', '/api/csv/csvimport', h2, { file: b64(file) })).statusCode).toBe(200);
    let done: { result: number } = { result: 0 };
    for (let i = 0; i < 500 && done.result !== 100 && done.result !== -1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      done = (await call(second, 'GET', '/api/csv/csvimport', h2)).json();
    }
    expect(done).toMatchObject({ result: 100, created: 100, updated: 0, unchanged: 500, interrupted: false });
  });
});
