import fs from 'node:fs';
import path from 'node:path';
import type { User } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { configuredUsers } from '../src/features/users/usersApi.ts';

const SRC = path.resolve(__dirname, '../src');
const read = (file: string) => fs.readFileSync(path.join(SRC, file), 'utf8');

describe('choosers of users offer only users with a main extension', () => {
  it('leaves out users whose main extension is none or empty', () => {
    const users = [
      { username: 'alice', default_extension: '201' },
      { username: 'dave', default_extension: 'none' },
      { username: 'erin', default_extension: '' },
      { username: 'fred', default_extension: '90' },
    ] satisfies Pick<User, 'username' | 'default_extension'>[];
    expect(configuredUsers(users).map((u) => u.username)).toEqual(['alice', 'fred']);
  });

  // The API lists every user whatever the filter (contract api-core §8.2): each chooser goes through the one helper.
  it.each([
    ['gateway FXS ports', 'features/gateways/gatewaysApi.ts'],
    ["the model editor's BLF user search", 'features/models/modelsApi.ts'],
    ["streaming sources' extensions", 'features/apps/StreamingPage.tsx'],
    ['linking phones in the user configuration', 'features/preferences/PreferencesPage.tsx'],
  ])('%s take their users from usersApi.configured', (_, file) => {
    expect(read(file)).toContain('usersApi.configured(');
    expect(read(file)).not.toMatch(/filter=configured|filter: 'configured'/);
  });
});
