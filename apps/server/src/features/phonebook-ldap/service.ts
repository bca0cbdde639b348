import { randomBytes } from 'node:crypto';
import type { PhonebookLdap, PhonebookLdapEntry, PhonebookLdapType } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { PHONEBOOK_BASE_DN, PHONEBOOK_BIND_DN } from './entries.ts';
import { type MirrorOutcome, PhonebookMirror } from './mirror.ts';
import type { Slapd } from './slapd.ts';

const KEY = 'phonebook.ldap';

interface Stored {
  ldap: { enabled: boolean };
  ldaps: { enabled: boolean };
  /** Bind password of the TLS service, generated once. */
  password: string;
}

/** What phones search with; the same values the shipped defaults use (contract provisioning §7.1). */
const SEARCH = {
  base: PHONEBOOK_BASE_DN,
  name_display: '%cn %o',
  mainphone_number_attr: 'telephoneNumber',
  mobilephone_number_attr: 'mobile',
  otherphone_number_attr: 'homePhone',
  name_attr: 'cn o',
  number_filter: '(|(telephoneNumber=%)(mobile=%)(homePhone=%))',
  name_filter: '(|(cn=%)(o=%))',
} as const;

export interface PhonebookLdapOptions {
  db: Kysely<Database>;
  slapd: Slapd;
  /** Host name phones are given (the provisioning server's). */
  serverHost: string;
  /** Address the listeners bind (the console's HOST). */
  listenHost: string;
  ports: Record<PhonebookLdapType, number>;
  /** The HTTPS listener's certificate and key, which the TLS service presents too. */
  tls: () => Promise<{ cert: Buffer; key: Buffer }>;
  log: Log;
}

/**
 * The PBX's LDAP phonebook services for phones (api-admin §9.9–§9.10): plain LDAP, anonymous, and LDAPS with a
 * read-only bind user, both served by one supervised slapd from a copy of the central phonebook kept current
 * after every sync. The switches are stored, so the services come back with Centralino.
 */
export class PhonebookLdapService {
  private readonly store: SettingsStore;
  private readonly mirror: PhonebookMirror;
  private refreshing: Promise<MirrorOutcome | undefined> | undefined;
  private again = false;
  /** What the last refresh changed (the log says it too). */
  lastOutcome: MirrorOutcome | undefined;

  constructor(private readonly options: PhonebookLdapOptions) {
    this.store = new SettingsStore(options.db);
    this.mirror = new PhonebookMirror(options.db);
    options.slapd.onRecovered = () => {
      this.mirror.reset();
      this.changed();
    };
  }

  private async stored(): Promise<Stored> {
    const current = await this.store.get<Stored>(KEY);
    if (current) return current;
    const initial: Stored = {
      ldap: { enabled: false },
      ldaps: { enabled: false },
      password: randomBytes(12).toString('base64url'),
    };
    await this.store.set(KEY, initial);
    return initial;
  }

  async get(): Promise<PhonebookLdap> {
    const stored = await this.stored();
    const { slapd } = this.options;
    const entry = (type: PhonebookLdapType): PhonebookLdapEntry => ({
      enabled: stored[type].enabled,
      status: stored[type].enabled ? slapd.state : 'stopped',
      error: stored[type].enabled ? slapd.error : null,
      server: this.options.serverHost,
      port: String(this.options.ports[type]),
      // Plain LDAP is anonymous and read-only; the TLS service asks for a bind.
      user: type === 'ldaps' ? PHONEBOOK_BIND_DN : '',
      password: type === 'ldaps' ? stored.password : '',
      tls: type === 'ldaps' ? 'ldaps' : 'none',
      ...SEARCH,
    });
    return { ldap: entry('ldap'), ldaps: entry('ldaps') };
  }

  /** Stores the switch, then starts, restarts or stops slapd to match; a start that fails is an error. */
  async setEnabled(type: PhonebookLdapType, enabled: boolean): Promise<void> {
    const stored = await this.stored();
    await this.store.set(KEY, { ...stored, [type]: { enabled } });
    await this.apply();
  }

  /**
   * Runs slapd with the listeners switched on (none: stopped), then fills it; in the background at start-up,
   * where slapd serves its copy from disk at once and checking 100,000 contacts must not hold up the console.
   */
  private async apply(fill: 'now' | 'background' = 'now'): Promise<void> {
    const stored = await this.stored();
    const { slapd, ports } = this.options;
    if (!stored.ldap.enabled && !stored.ldaps.enabled) {
      await slapd.stop();
      return;
    }
    try {
      await slapd.start({
        host: this.options.listenHost,
        ldapPort: stored.ldap.enabled ? ports.ldap : undefined,
        ldapsPort: stored.ldaps.enabled ? ports.ldaps : undefined,
        tls: stored.ldaps.enabled ? await this.options.tls() : undefined,
      });
      this.mirror.reset();
      if (fill === 'background') this.changed();
      else await this.refresh();
    } catch (error) {
      const reason = slapd.error ?? (error instanceof Error ? error.message : String(error));
      this.options.log.error({ error: reason }, 'phonebook LDAP server did not start');
      throw new AppError(503, 'phonebook_service_failed', (lang) =>
        lang === 'it'
          ? `Il servizio rubrica LDAP non è partito: ${reason}`
          : `The LDAP phonebook service did not start: ${reason}`,
      );
    }
  }

  /** Copies the central phonebook into slapd (one refresh at a time; a change meanwhile runs one more). */
  refresh(): Promise<MirrorOutcome | undefined> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<MirrorOutcome | undefined> => {
      let outcome: MirrorOutcome | undefined;
      do {
        this.again = false;
        if (this.options.slapd.state !== 'running') return outcome;
        const client = await this.options.slapd.manager();
        try {
          outcome = await this.mirror.refresh(client, (await this.stored()).password, (records) =>
            this.options.slapd.rebuild(records),
          );
          this.lastOutcome = outcome;
          if (outcome.added + outcome.removed > 0) this.options.log.info(outcome, 'phonebook LDAP updated');
        } finally {
          await client.unbind().catch(() => {});
        }
      } while (this.again);
      return outcome;
    };
    this.refreshing = run().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** The central phonebook changed: phones see it after this refresh. */
  changed(): void {
    this.refresh().catch((error) => {
      this.mirror.reset();
      this.options.log.error({ err: error }, 'phonebook LDAP update failed');
    });
  }

  /** Waits for the refresh under way, if any (tests and the bench). */
  async settled(): Promise<void> {
    while (this.refreshing) await this.refreshing.catch(() => {});
  }

  /** At Centralino's start: the services switched on come back. */
  async start(): Promise<void> {
    await this.apply('background').catch(() => {
      // Recorded on the service (GET shows the error); Centralino starts anyway.
    });
  }

  async stop(): Promise<void> {
    await this.settled();
    await this.options.slapd.shutdown();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The phones' LDAP phonebook services (tests wait on their refresh). */
    phonebookLdap: PhonebookLdapService;
  }
}
