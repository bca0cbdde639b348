import { type LanguagesResponse, type PbxLanguage, pbxLanguages, toneZoneFor } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';

const INSTALLED_KEY = 'pbx.languages.installed';
const DEFAULT_KEY = 'pbx.language';
const TONEZONE_KEY = 'pbx.tonezone';
const INITIAL_INSTALLED: PbxLanguage[] = ['en', 'it'];
const INITIAL_DEFAULT: PbxLanguage = 'en';

/** PBX language: which sound languages are installed and which one is the system default. */
export class LanguageService {
  private readonly store: SettingsStore;

  constructor(private readonly db: Kysely<Database>) {
    this.store = new SettingsStore(db);
  }

  private async installed(): Promise<PbxLanguage[]> {
    return (await this.store.get<PbxLanguage[]>(INSTALLED_KEY)) ?? INITIAL_INSTALLED;
  }

  async list(): Promise<LanguagesResponse> {
    const installed = await this.installed();
    const current = (await this.store.get<PbxLanguage>(DEFAULT_KEY)) ?? INITIAL_DEFAULT;
    // Keep the catalogue order so the answer is stable.
    const ordered = pbxLanguages.filter((lang) => installed.includes(lang));
    return Object.fromEntries(ordered.map((lang) => [lang, { default: lang === current }]));
  }

  async install(lang: PbxLanguage): Promise<void> {
    const installed = await this.installed();
    if (!installed.includes(lang)) await this.store.set(INSTALLED_KEY, [...installed, lang]);
  }

  /** Makes the language the PBX default (installing it when needed) and sets the matching tone zone. */
  async setDefault(lang: PbxLanguage): Promise<void> {
    const installed = await this.installed();
    await this.db.transaction().execute(async (trx) => {
      if (!installed.includes(lang)) await this.store.set(INSTALLED_KEY, [...installed, lang], trx);
      await this.store.set(DEFAULT_KEY, lang, trx);
      await this.store.set(TONEZONE_KEY, toneZoneFor(lang), trx);
    });
  }
}
