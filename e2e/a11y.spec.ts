import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, test as base, expect, type Locator, type Page } from '@playwright/test';
import { seriousViolations } from './fixtures.ts';
import { ADMIN_PASSWORD, type RunningServer, startServer } from './server.ts';

/*
 * Every screen and every modal of the console, checked by axe: a serious or critical WCAG A/AA violation
 * fails. Screens are visited in English and Italian, the main ones in the dark scheme too. Buttons are found
 * by their translated text, read from the console's own catalogues.
 *
 * Each check is a test of its own, so the walk spreads over the workers. A worker starts two servers, once,
 * for the checks it is given: one with the wizard still running (the login page and the wizard steps) and
 * one seeded with data and the wizard finished (the screens, their modals, the dark scheme, the keyboard).
 * The checks only open and close things (the outbound routes are saved as they are, to offer a route's own
 * settings), so they need no order among themselves.
 */

type Lang = 'en' | 'it';
type Scheme = 'light' | 'dark';
type Tr = (key: string, vars?: Record<string, string>) => string;

const i18nDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/src/i18n');
const catalogues: Record<Lang, Record<string, unknown>> = {
  en: JSON.parse(fs.readFileSync(path.join(i18nDir, 'en.json'), 'utf8')),
  it: JSON.parse(fs.readFileSync(path.join(i18nDir, 'it.json'), 'utf8')),
};

function translator(lang: Lang): Tr {
  return (key, vars = {}) => {
    let value: unknown = catalogues[lang];
    for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    if (typeof value !== 'string') throw new Error(`no ${lang} text for ${key}`);
    return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
  };
}

const MAC = '00-15-65-AA-BB-CC';

/** A server of the worker's, and the key of the administrator signed in on it through the API. */
interface Served {
  srv: RunningServer;
  secretkey: string;
}

async function api(served: Served, method: string, url: string, body?: unknown) {
  const res = await fetch(`${served.srv.url}${url}`, {
    method,
    headers: {
      User: 'admin',
      Secretkey: served.secretkey,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : null;
}

async function startSignedIn(): Promise<Served> {
  // Phones are pushed to a closed local port: the push fails at once instead of reaching the internet.
  const srv = await startServer({ RPS_URL: 'http://127.0.0.1:9' });
  const res = await fetch(`${srv.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return { srv, secretkey: ((await res.json()) as { secretkey: string }).secretkey };
}

/** Users, extensions, a trunk, an inbound route, a group and a phone with a scheduled reboot; the wizard done. */
async function seed(served: Served) {
  const call = (method: string, url: string, body?: unknown) => api(served, method, url, body);
  await call('POST', '/api/configuration/mode', { mode: 'legacy' });
  await expect.poll(async () => (await call('GET', '/api/configuration/userprovider')).configured).toBe(1);
  for (const [username, fullname, extension] of [
    ['alice', 'Alice Rossi', '201'],
    ['bob', 'Bob Bianchi', '202'],
  ] as const) {
    await call('POST', '/api/users', { username, fullname });
    await call('POST', '/api/mainextensions', { username, extension });
  }
  await call('POST', '/api/trunks', {
    provider: 'vivavox',
    name: 'vivavox',
    username: '0721123456',
    password: 's3cr3t!',
    phone: '0721123456',
    codecs: ['alaw'],
    forceCodec: true,
  });
  await call('POST', '/api/inboundroutes', {
    extension: '0612345101',
    cidnum: '',
    description: 'Main line',
    destination: 'from-did-direct,201,1',
  });
  await call('POST', '/api/cti/groups', { name: 'Support' });
  await call('POST', '/api/provisioning/v1/phones', { mac: MAC, model: 'yealink-T46' });
  await call('POST', '/api/physicalextensions', { mac: MAC, model: 'yealink-T46' });
  await call('POST', '/api/physicalextensions', { mainextension: '201', mac: MAC });
  await call('POST', '/api/phones/reboot', { [MAC]: { hours: '23', minutes: '30' } });
  await call('POST', '/api/configuration/wizard', { status: 'false', step: 13 });
}

/** A page of the worker's per server, sign-in, language and scheme: kept for the next check that wants the same. */
type OpenPage = (served: Served, signedIn: boolean, lang: Lang, scheme: Scheme) => Promise<Page>;

const test = base.extend<object, { wizardSrv: Served; seededSrv: Served; openPage: OpenPage }>({
  // The wizard still running: the login page and the wizard's steps (only looked at, never moved on).
  wizardSrv: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const served = await startSignedIn();
      await use(served);
      await served.srv.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // Seeded and the wizard finished: every screen and modal.
  seededSrv: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const served = await startSignedIn();
      await seed(served);
      await use(served);
      await served.srv.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // A browser context costs seconds on a loaded machine (a window of its own): one per kind of page, for all
  // the worker's checks, as the walk used one per language before it was split. Each check starts with
  // page.goto, a fresh document; a failed check ends the worker, and its pages with it.
  openPage: [
    async ({ browser }, use) => {
      const pages = new Map<string, Promise<Page>>();
      const contexts: BrowserContext[] = [];
      await use((served, signedIn, lang, scheme) => {
        const key = `${served.srv.url} ${signedIn} ${lang} ${scheme}`;
        let page = pages.get(key);
        if (!page) {
          page = (async () => {
            const context = await browser.newContext({
              baseURL: served.srv.url,
              locale: lang === 'it' ? 'it-IT' : 'en-US',
              colorScheme: scheme,
            });
            contexts.push(context);
            if (signedIn) {
              await context.addInitScript(
                (stored) => localStorage.setItem('secretkey', stored),
                JSON.stringify({ user: 'admin', secretkey: served.secretkey }),
              );
            }
            return context.newPage();
          })();
          pages.set(key, page);
        }
        return page;
      });
      for (const context of contexts) await context.close();
    },
    { scope: 'worker' },
  ],
});

// A screen with several modals runs axe several times: room for a loaded machine.
test.describe.configure({ timeout: 240_000 });
// A control that never shows fails its check in seconds, not at the end of the test.
test.use({ actionTimeout: 30_000 });

/** The screen has drawn its title and finished loading. */
async function settled(page: Page) {
  await expect(page.locator('h1')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('main .mantine-Loader-root, main [data-loading]')).toHaveCount(0, { timeout: 30_000 });
}

async function expectClean(page: Page, label: string) {
  expect.soft(await seriousViolations(page, ['body']), label).toEqual([]);
}

/** Opens a modal, checks it, closes it with Escape. */
async function checkModal(page: Page, label: string, open: () => Promise<unknown>) {
  await open();
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toBeVisible();
  // The modal's entrance transition is over: axe reads final colours.
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectClean(page, label);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true }).first();

interface Screen {
  path: string;
  /** Shown in the dark scheme too. */
  main?: boolean;
  /** Opens each modal of the screen in turn; checkModal checks and closes it. */
  modals?: (page: Page, t: Tr, lang: Lang) => Promise<void>;
}

const SCREENS: Screen[] = [
  { path: '/', main: true },
  {
    path: '/extensions',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'add user', () => button(page, t('extensions.addUser')).click());
      await checkModal(page, 'import', () => button(page, t('extensions.import')).click());
      // A user's follow-me, opened from the user's row (its name starts the button's label).
      await checkModal(page, 'follow-me', () =>
        page
          .getByRole('button', { name: new RegExp(`^${t('followMe.open')} `) })
          .first()
          .click(),
      );
    },
  },
  // The parent screens of two steps each: their sub-step bar and what each step is for.
  { path: '/trunks' },
  {
    path: '/trunks/physical',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'gateway form', () => button(page, t('gateways.add')).click());
    },
  },
  {
    path: '/trunks/voip',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'new trunk', () => button(page, t('voip.create')).click());
      await checkModal(page, 'edit trunk', () =>
        page
          .getByTestId('trunk-detail')
          .getByRole('button', { name: t('voip.editButton') })
          .click(),
      );
      await checkModal(page, 'delete trunk', () =>
        page
          .getByTestId('trunk-detail')
          .getByRole('button', { name: t('voip.delete') })
          .click(),
      );
    },
  },
  { path: '/routes' },
  {
    path: '/routes/inbound',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'new inbound route', () => button(page, t('inbound.create')).click());
    },
  },
  {
    path: '/routes/outbound',
    main: true,
    modals: async (page, t) => {
      await page
        .getByRole('button', { name: /^national_/ })
        .first()
        .click();
      // A route's own settings are offered once the routes are saved.
      await button(page, t('outbound.save')).click();
      await checkModal(page, 'route editor', () => button(page, t('outbound.advanced')).click());
    },
  },
  {
    path: '/devices',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'default settings', () => button(page, t('phones.landing.edit')).click());
      // Its phonebook section too, with the state of the phonebook service.
      await checkModal(page, 'default settings, phonebook', async () => {
        await button(page, t('phones.landing.edit')).click();
        await button(page.getByRole('dialog').last(), t('phones.defaults.sections.phonebook')).click();
      });
    },
  },
  {
    path: '/devices/inventory',
    main: true,
    modals: async (page, t) => {
      await checkModal(page, 'add phones', () => button(page, t('phones.add')).click());
      await checkModal(page, 'phone info', () => button(page, t('phones.info.open', { mac: MAC })).click());
      await button(page, t('phones.reboot.menuFor', { mac: MAC })).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expect(page.getByRole('menu')).toHaveCSS('opacity', '1');
      await expectClean(page, 'reboot menu');
      // Keyboard: the first item has the focus, arrows move it, Escape closes the menu.
      await expect(page.getByRole('menuitem', { name: t('phones.reboot.now') })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(page.getByRole('menuitem', { name: t('phones.reboot.schedule') })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
      await button(page, t('phones.reboot.menuFor', { mac: MAC })).click();
      await checkModal(page, 'schedule reboot', () =>
        page.getByRole('menuitem', { name: t('phones.reboot.schedule') }).click(),
      );
      await checkModal(page, 'delete phone', () => button(page, t('phones.delete')).click());
    },
  },
  {
    path: '/devices/models',
    modals: async (page, t) => {
      await checkModal(page, 'create model', () => button(page, t('models.createNew')).click());
      await checkModal(page, 'model default settings', () => button(page, t('models.defaultSettings')).click());
      await checkModal(page, 'file upload', () => button(page, t('models.manageFiles')).click());
    },
  },
  {
    path: '/configurations/groups',
    modals: async (page, t) => {
      await checkModal(page, 'new group', () => button(page, t('cti.groups.create')).click());
    },
  },
  {
    path: '/configurations/profiles',
    modals: async (page, t) => {
      // A profile opened, with its switches and their descriptions, only looked at. Its routes card may be empty
      // or list the routes the /routes/outbound check saves in parallel; cti.spec.ts checks it with routes.
      await page.getByRole('button', { name: 'Base' }).click();
      const base = page.locator('[role="region"]').filter({ has: page.getByTestId('profile-Base') });
      await expect(base).toBeVisible();
      // Opened all the way: the panel's inline height goes once its transition ends.
      await expect(base).not.toHaveAttribute('style', /height/);
      await expect(base).toHaveCSS('opacity', '1');
      await expectClean(page, 'profile Base');
      await checkModal(page, 'new profile', () => button(page, t('cti.profiles.create')).click());
    },
  },
  {
    path: '/configurations/preferences',
    modals: async (page, t) => {
      await page.getByRole('button', { name: /Alice Rossi/ }).click();
      await expect(page.getByTestId('config-alice')).toBeVisible();
      await expectClean(page, 'user configuration');
      await checkModal(page, 'device info', () =>
        page.getByRole('button', { name: t('preferences.info.openFor', { extension: '201' }) }).click(),
      );
    },
  },
  { path: '/apps' },
  {
    path: '/apps/paramurl',
    modals: async (page, t) => {
      await checkModal(page, 'new parameterised URL', () => button(page, t('apps.paramurl.create')).click());
    },
  },
  {
    path: '/apps/streaming',
    modals: async (page, t) => {
      await checkModal(page, 'new streaming source', () => button(page, t('apps.streaming.create')).click());
    },
  },
  { path: '/apps/cloudServices' },
  {
    path: '/apps/bulkextensions',
    modals: async (page, t) => {
      await button(page, t('bulkExt.select.all')).click();
      await expect(button(page, t('bulkExt.edit'))).toBeEnabled();
      await checkModal(page, 'bulk edit', () => button(page, t('bulkExt.edit')).click());
    },
  },
  { path: '/apps/bulkdevices' },
  {
    path: '/apps/phonebook',
    modals: async (page, t) => {
      await checkModal(page, 'new phonebook source', () => button(page, t('phonebook.create')).click());
    },
  },
  {
    path: '/apps/cards',
    modals: async (page, t) => {
      await checkModal(page, 'new card source', () => button(page, t('cards.sources.create')).click());
      await checkModal(page, 'new card template', () => button(page, t('cards.templates.create')).click());
      await checkModal(page, 'duplicate card template', () =>
        button(page.getByTestId('template-identity'), t('cards.templates.duplicate.button')).click(),
      );
      await checkModal(page, 'new card', () => button(page, t('cards.cards.create')).click());
    },
  },
  { path: '/flows/recordings' },
  {
    path: '/flows/announcements',
    modals: async (page, t) => {
      await checkModal(page, 'new announcement', () => button(page, t('flows.announcements.create')).click());
    },
  },
  {
    path: '/flows/ivr',
    modals: async (page, t) => {
      await checkModal(page, 'new IVR', () => button(page, t('flows.ivrs.create')).click());
    },
  },
  {
    path: '/flows/daynight',
    modals: async (page, t) => {
      await checkModal(page, 'new day/night switch', () => button(page, t('flows.daynight.create')).click());
    },
  },
  {
    path: '/flows/queues',
    modals: async (page, t) => {
      await checkModal(page, 'new queue', () => button(page, t('flows.queues.create')).click());
    },
  },
  {
    path: '/flows/ringgroups',
    modals: async (page, t) => {
      await checkModal(page, 'new ring group', () => button(page, t('flows.ringGroups.create')).click());
    },
  },
  {
    path: '/routes/blocking',
    modals: async (page, t) => {
      await checkModal(page, 'block a caller', () => button(page, t('blocking.create')).click());
    },
  },
  {
    path: '/flows/conferences',
    modals: async (page, t) => {
      await checkModal(page, 'new conference', () => button(page, t('conferences.create')).click());
    },
  },
  { path: '/flows/music' },
  {
    path: '/flows/parking',
    modals: async (page, t) => {
      await checkModal(page, 'new parking lot', () => button(page, t('parking.create')).click());
    },
  },
  {
    path: '/flows/timegroups',
    modals: async (page, t) => {
      await checkModal(page, 'new time group', () => button(page, t('flows.timeGroups.create')).click());
    },
  },
  {
    path: '/flows/timeconditions',
    modals: async (page, t) => {
      await checkModal(page, 'new time condition', () => button(page, t('flows.timeConditions.create')).click());
    },
  },
  {
    path: '/flows/cqr',
    modals: async (page, t) => {
      await checkModal(page, 'new caller query routing', () => button(page, t('flows.cqr.create')).click());
    },
  },
  { path: '/admin' },
  { path: '/admin/languages' },
  { path: '/admin/settings' },
  { path: '/admin/report', main: true },
  { path: '/admin/backup' },
  { path: '/admin/accounts' },
  { path: '/admin/audit' },
  { path: '/calls' },
  { path: '/calls/reports', main: true },
  { path: '/final' },
  // Without an older system configured: the landing page says no migration is available.
  { path: '/migration' },
];

const WIZARD_STEPS = [
  '/users',
  '/extensions',
  '/trunks/physical',
  '/trunks/voip',
  '/routes/inbound',
  '/routes/outbound',
  '/devices',
  '/devices/inventory',
  '/devices/models',
  '/configurations/groups',
  '/configurations/profiles',
  '/configurations/preferences',
  '/admin/languages',
  '/admin/settings',
];

for (const [lang, scheme] of [
  ['en', 'light'],
  ['it', 'light'],
  ['en', 'dark'],
] as const) {
  test(`login page (${lang}, ${scheme})`, async ({ openPage, wizardSrv }) => {
    const page = await openPage(wizardSrv, false, lang, scheme);
    await page.goto('/login');
    await settled(page);
    await expectClean(page, `login ${lang} ${scheme}`);
    // A failed sign-in shows its alert (three in all on a server: under the five that pause the account).
    await page.getByRole('textbox').first().fill('admin');
    await page.locator('input[type=password]').fill('wrong-password');
    await page.locator('input[type=password]').press('Enter');
    await expect(page.getByRole('alert')).toBeVisible();
    await expectClean(page, `login error ${lang} ${scheme}`);
  });
}

// English walks every step; Italian the frame and a few steps with long texts.
const wizardWalk: [Lang, string][] = [
  ...WIZARD_STEPS.map((step): [Lang, string] => ['en', step]),
  ...['/users', '/routes/outbound', '/devices', '/admin/settings'].map((step): [Lang, string] => ['it', step]),
];
for (const [lang, step] of wizardWalk) {
  test(`wizard step ${step} (${lang})`, async ({ openPage, wizardSrv }) => {
    const page = await openPage(wizardSrv, true, lang, 'light');
    await page.goto(step);
    await expect(page.getByTestId('step-bar')).toBeVisible({ timeout: 30_000 });
    await settled(page);
    await expectClean(page, `wizard ${step} ${lang}`);
    if (step === '/users') {
      // The directory form opens inline (once a directory exists, this screen leads to the extensions).
      await button(page, translator(lang)('users.provider.button')).click();
      await expect(page.getByTestId('directory-form')).toBeVisible();
      await expectClean(page, `wizard /users directory form ${lang}`);
    }
  });
}

for (const lang of ['en', 'it'] as const) {
  for (const screen of SCREENS) {
    test(`screen ${screen.path} and its modals (${lang})`, async ({ openPage, seededSrv }) => {
      const t = translator(lang);
      const page = await openPage(seededSrv, true, lang, 'light');
      await page.goto(screen.path);
      await settled(page);
      await expectClean(page, `${screen.path} ${lang}`);
      if (screen.modals) {
        await test.step(`${screen.path} modals`, () => screen.modals?.(page, t, lang) ?? Promise.resolve());
      }
    });
  }
}

for (const screen of SCREENS.filter((s) => s.main)) {
  test(`screen ${screen.path} in the dark scheme`, async ({ openPage, seededSrv }) => {
    const t = translator('en');
    const page = await openPage(seededSrv, true, 'en', 'dark');
    await page.goto(screen.path);
    await settled(page);
    await expectClean(page, `${screen.path} dark`);
    if (screen.path === '/extensions') {
      await checkModal(page, 'add user dark', () => button(page, t('extensions.addUser')).click());
    }
  });
}

for (const lang of ['en', 'it'] as const) {
  test(`keyboard (${lang}): the skip link comes first and moves to the screen; the password toggle is reachable`, async ({
    openPage,
    seededSrv,
  }) => {
    const t = translator(lang);
    const page = await openPage(seededSrv, true, lang, 'light');
    await page.goto('/extensions');
    await settled(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: t('nav.skipToContent') });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The apply badge is reachable and says what it is about.
    await expect(page.getByTestId('pbx-apply')).toHaveAttribute('tabindex', '0');
    await expect(page.getByRole('status', { name: t('pbx.statusName') })).toBeVisible();

    const login = await openPage(seededSrv, false, lang, 'light');
    await login.goto('/login');
    await login.locator('input[type=password]').focus();
    await login.keyboard.press('Tab');
    await expect(login.getByRole('button', { name: t('login.togglePassword') })).toBeFocused();
  });
}
