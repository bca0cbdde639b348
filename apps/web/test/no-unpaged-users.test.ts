import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The unpaged users list (GET /api/users/{arg} without limit, about 1 MB at 5,000 users) is kept on the
 * server for older clients only: no screen of the console may ask for it. Every call to the users list in
 * the web app must carry a limit, either literally in its URL or through a builder listed here, whose
 * body is checked to set one.
 */
const BUILDERS_WITH_LIMIT: Record<string, string> = {
  // usersApi.page: its query type requires limit, and queryString() writes every field of the query.
  'features/users/usersApi.ts': 'queryString(query)',
};

const SRC = path.resolve(__dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every string or template literal of the app that names the users list, with its file. */
function usersListCalls(): { file: string; url: string }[] {
  const calls: { file: string; url: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/['"`](\/api\/users\/(?:false|true|\$\{)[^'"`]*)['"`]/g)) {
      calls.push({ file: path.relative(SRC, file).split(path.sep).join('/'), url: match[1] as string });
    }
  }
  return calls;
}

describe('the console never asks for the unpaged users list', () => {
  it('finds the users list calls of the app', () => {
    // usersApi's page and sync calls: every screen and chooser (users-choosers.test.ts) lists users through them.
    expect(usersListCalls().length).toBeGreaterThanOrEqual(2);
  });

  it('gives every users list call a limit', () => {
    for (const { file, url } of usersListCalls()) {
      if (url.includes('limit=')) continue;
      const builder = BUILDERS_WITH_LIMIT[file];
      expect(builder, `${file}: ${url} has no limit and no listed builder`).toBeDefined();
      expect(url.includes('${') || url.endsWith('?'), `${file}: ${url}`).toBe(true);
      expect(fs.readFileSync(path.join(SRC, file), 'utf8'), `${file}: ${builder}`).toContain(builder);
    }
  });

  it('requires a limit in the type of usersApi.page', () => {
    const text = fs.readFileSync(path.join(SRC, 'features/users/usersApi.ts'), 'utf8');
    expect(text).toContain('page: async (query: UserListQuery & { limit: number })');
  });
});
