import zlib from 'node:zlib';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { extensionColumns, searchKey, UsersRepository } from '../src/features/users/repository.ts';
import { UNPAGED_CHUNK } from '../src/features/users/service.ts';
import { DB_KINDS, useTestApp } from './helpers.ts';

/** More than two chunks of the stream, and not a multiple of one. */
const USERS = 2 * UNPAGED_CHUNK + 137;

/**
 * The unpaged users list (GET /api/users/{arg} without limit) is what older clients call: it still answers
 * every user, streamed a chunk at a time, with no secrets.
 */
describe.each(DB_KINDS)('the unpaged users list (%s)', (kind) => {
  const t = useTestApp(kind);
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.headers });

  it('stores many users with passwords, half of them configured', async () => {
    const now = Date.now();
    const rows = Array.from({ length: USERS }, (_, i) => {
      const username = `user${String(i).padStart(5, '0')}`;
      const extension = i % 2 === 0 ? String(1000 + i) : null;
      return {
        username,
        displayname: `User ${i}`,
        fname: 'User',
        lname: String(i),
        email: null,
        source: 'local' as const,
        password_hash: null,
        password_clear: `Pw${i}secret`,
        ...extensionColumns(extension),
        outboundcid: null,
        mobile: null,
        voicemail_pin: '1234',
        profile_id: null,
        search_key: searchKey(username, `User ${i}`, extension),
        created_at: now,
        updated_at: now,
      };
    });
    for (let i = 0; i < rows.length; i += 200) {
      await t.database.db
        .insertInto('users')
        .values(rows.slice(i, i + 200))
        .execute();
    }
  });

  it('answers every user, in order, as one JSON array with the total, and no secret', async () => {
    const reads = vi.spyOn(UsersRepository.prototype, 'list');
    const res = await get('/api/users/false');
    // Read from the database a chunk at a time, never as one query for everything.
    expect(reads.mock.calls.map(([query]) => [query.offset, query.limit])).toEqual([
      [0, UNPAGED_CHUNK],
      [UNPAGED_CHUNK, UNPAGED_CHUNK],
      [2 * UNPAGED_CHUNK, UNPAGED_CHUNK],
    ]);
    reads.mockRestore();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-total-count']).toBe(String(USERS));
    const users = res.json() as Record<string, unknown>[];
    expect(users).toHaveLength(USERS);
    expect(users.map((u) => u.username)).toEqual(
      Array.from({ length: USERS }, (_, i) => `user${String(i).padStart(5, '0')}`),
    );
    expect(users[0]).toMatchObject({ username: 'user00000', default_extension: '1000', has_password: true });
    expect(users[1]).toMatchObject({ default_extension: 'none', devices: [] });
    expect(res.body).not.toMatch(/"password"|secret|Pw\d+secret|"voicemail/);
  });

  it('streams the filtered and sorted variants too, and the sync variant', async () => {
    const configured = await get('/api/users/false?filter=configured&sort=extension');
    const numbers = (configured.json() as { default_extension: string }[]).map((u) => Number(u.default_extension));
    expect(numbers).toHaveLength(Math.ceil(USERS / 2));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(configured.headers['x-total-count']).toBe(String(Math.ceil(USERS / 2)));
    expect((await get('/api/users/false?search=user0100')).json()).toHaveLength(10);
    expect((await get('/api/users/false?search=nobody')).json()).toEqual([]);
    expect((await get('/api/users/true')).json()).toHaveLength(USERS);
  });

  it('finds a name fragment anywhere, as before, also after renames and deletions', async () => {
    const names = async (search: string) =>
      ((await get(`/api/users/false?search=${encodeURIComponent(search)}`)).json() as { username: string }[]).map(
        (u) => u.username,
      );
    const all = Array.from({ length: USERS }, (_, i) => `user${String(i).padStart(5, '0')}`);
    expect(await names('r0012')).toEqual(all.filter((u) => u.includes('r0012')));
    expect(await names('USER 12')).toEqual(all.filter((_, i) => `user ${i}`.includes('user 12')));
    expect(await names('12')).toEqual(
      all.filter((u, i) => `${u} user ${i} ${i % 2 === 0 ? 1000 + i : ''}`.includes('12')),
    );
    expect(await names('r_0')).toEqual([]);
    await t.database.db
      .updateTable('users')
      .set({ displayname: 'Zebedee Quux', search_key: searchKey('user00007', 'Zebedee Quux', null) })
      .where('username', '=', 'user00007')
      .execute();
    await t.database.db.deleteFrom('users').where('username', '=', 'user00009').execute();
    expect(await names('zebedee')).toEqual(['user00007']);
    expect(await names('user 7')).not.toContain('user00007');
    expect(await names('user00009')).toEqual([]);
  });

  it('compresses the list for a client that accepts it: brotli first, gzip otherwise, streamed or not', async () => {
    const plain = await get('/api/users/false?limit=50');
    const asked = (encoding: string, url = '/api/users/false?limit=50') =>
      t.app.inject({ method: 'GET', url, headers: { ...t.headers, 'accept-encoding': encoding } });
    const br = await asked('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gzip = await asked('gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const streamed = await asked('gzip', '/api/users/false');
    expect(streamed.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(streamed.rawPayload).toString())).toHaveLength(USERS - 1);
    // Small answers go as they are; so does everything for a client that accepts no compression.
    expect(
      (await asked('br', '/api/users/false?limit=1&search=user00001')).headers['content-encoding'],
    ).toBeUndefined();
    expect((await asked('identity')).headers['content-encoding']).toBeUndefined();
  });
  it('keeps the answer between requests, and after any change to users or devices answers the users as they are', async () => {
    const reads = vi.spyOn(UsersRepository.prototype, 'list');
    onTestFinished(() => reads.mockRestore());
    const first = await get('/api/users/false');
    // (Made for the compression test above already, and kept since.)
    const madeWith = reads.mock.calls.length;
    const again = await get('/api/users/false');
    const br = await t.app.inject({
      method: 'GET',
      url: '/api/users/false',
      headers: { ...t.headers, 'accept-encoding': 'br' },
    });
    // Kept: no user read again, the same bytes, compressed from the same answer.
    expect(reads.mock.calls.length).toBe(madeWith);
    expect(again.body).toBe(first.body);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['x-total-count']).toBe(first.headers['x-total-count']);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(first.body);

    // The list the paged route gives, page by page, is the one truth to compare with.
    const paged = async () => {
      const out: unknown[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = (await get(`/api/users/false?limit=500&offset=${offset}`)).json() as unknown[];
        out.push(...page);
        if (page.length < 500) return out;
      }
    };
    expect(first.json()).toEqual(await paged());

    // Through the API: a web phone for user00000 (devices), then a main extension for user00001 (users).
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/webrtc', headers: t.headers, payload: { extension: '1000' } }))
        .statusCode,
    ).toBe(200);
    const withPhone = (await get('/api/users/false')).json() as { username: string; devices: { type: string }[] }[];
    expect(withPhone[0]?.devices.map((d) => d.type)).toEqual(['webrtc']);
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/mainextensions',
      headers: t.headers,
      payload: { username: 'user00001', extension: '7001' },
    });
    expect(set.statusCode, set.body).toBeLessThan(300);
    // Behind the server's back (another process, a restore): the database's counters see it all the same.
    await t.database.db.deleteFrom('users').where('username', '=', 'user00003').execute();
    await t.database.db
      .updateTable('users')
      .set({ displayname: 'Renamed Later' })
      .where('username', '=', 'user00005')
      .execute();
    const after = await get('/api/users/false');
    const listed = after.json() as { username: string; displayname: string; default_extension: string }[];
    expect(listed).toEqual(await paged());
    expect(after.headers['x-total-count']).toBe(String(listed.length));
    expect(listed.find((u) => u.username === 'user00001')?.default_extension).toBe('7001');
    expect(listed.find((u) => u.username === 'user00003')).toBeUndefined();
    expect(listed.find((u) => u.username === 'user00005')?.displayname).toBe('Renamed Later');
    expect(after.body).not.toMatch(/"password"|secret|Pw\d+secret|"voicemail/);
  });
});
