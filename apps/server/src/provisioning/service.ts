import { randomBytes } from 'node:crypto';
import {
  type ConnectivityCheckResult,
  canonicalMac,
  errorDetails,
  MAX_MODEL_NAME_LENGTH,
  MODEL_NAME,
  networkListProblem,
  PHONE_READ_ONLY_ATTRIBUTES,
  type ProvModel,
  type ProvModelCreate,
  type ProvModelPatch,
  type ProvPhone,
  type ProvPhoneCreate,
  type ProvPhonePatch,
  SHIPPED_DEFAULTS,
  shortMac,
  TOKENLESS_NETWORKS_VARIABLE,
} from '@centralino/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, ProvPhonesTable } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { isUniqueViolation } from '../features/users/service.ts';
import { isPostgres } from '../jobs/claim.ts';
import {
  accountVariables,
  type PhoneAccount,
  parseStoredAccounts,
  phoneAccountsSchema,
  type StoredAccount,
} from './accounts.ts';
import {
  defaultServerHost,
  type Listeners,
  type ProvisioningOrigin,
  parseAddress,
  provisioningOrigin,
} from './address.ts';
import { PhoneFileCache } from './cache.ts';
import { type ConnectivityOptions, connectivityCheck } from './connectivity.ts';
import {
  applyPatch,
  checkVariables,
  isListedModelName,
  mergeScopes,
  modelUrl,
  phoneUrl,
  provisioningUrl,
  SHIPPED_MODELS,
  type Variables,
  type VariablesPatch,
} from './scopes.ts';
import { keepFollowing, type SipPorts, withoutSipPorts, withSipPorts } from './sip-ports.ts';
import { serverTimeZone } from './time-zone.ts';

export type PhoneRow = Selectable<ProvPhonesTable>;
type Db = Kysely<Database> | Transaction<Database>;

export const notFound = () => new AppError(404, 'prov_not_found');

function parseJson(json: string): Variables {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Variables) : {};
  } catch {
    return {};
  }
}

/** Opaque per-phone secret for provisioning URLs: 32 lower-case hex characters. */
export const newToken = () => randomBytes(16).toString('hex');

function randomString(length: number, alphabet: string): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** A MAC in any accepted form → canonical; a malformed one is a 400 (the original stored anything). */
export function requireMac(input: string | undefined | null): string {
  if (input === undefined || input === null || input.trim() === '') throw new AppError(400, 'prov_missing_mac');
  const mac = canonicalMac(input.trim());
  if (!mac) throw new AppError(400, 'prov_invalid_mac', undefined, { mac: 'invalid MAC address' });
  return mac;
}

/** The token-less networks of a defaults patch, checked with the console's schema (400 prov_invalid_networks). */
function checkTokenlessNetworks(patch: VariablesPatch) {
  const value = patch[TOKENLESS_NETWORKS_VARIABLE];
  if (typeof value !== 'string') return;
  const problem = networkListProblem(value);
  if (!problem) return;
  const detail = (lang: 'en' | 'it') => {
    if ('tooMany' in problem) return errorDetails[lang].prov_invalid_networks;
    return lang === 'it'
      ? `«${problem.entry}» non è un indirizzo o una rete IPv4/IPv6. ${errorDetails.it.prov_invalid_networks}`
      : `"${problem.entry}" is not an IPv4/IPv6 address or network. ${errorDetails.en.prov_invalid_networks}`;
  };
  throw new AppError(400, 'prov_invalid_networks', detail, (lang) => ({
    [`variables.${TOKENLESS_NETWORKS_VARIABLE}`]: detail(lang),
  }));
}

function throwProblems(problems: ReturnType<typeof checkVariables>) {
  const prefixed = (fields: Record<string, string>) =>
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [`variables.${k}`, v]));
  if (Object.keys(problems.readOnly).length > 0) {
    throw new AppError(403, 'prov_read_only_attribute', undefined, prefixed(problems.readOnly));
  }
  if (Object.keys(problems.unknown).length > 0) {
    const names = Object.keys(problems.unknown).join(', ');
    throw new AppError(
      400,
      'prov_unknown_variable',
      (lang) => (lang === 'it' ? `Variabili non previste: ${names}` : `Variables not known here: ${names}`),
      prefixed(problems.unknown),
    );
  }
  if (Object.keys(problems.invalid).length > 0) {
    const detail = Object.entries(problems.invalid)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    throw new AppError(400, 'prov_invalid_variable', detail, prefixed(problems.invalid));
  }
}

export interface ProvisioningOptions {
  /** Host used in provisioning URLs (and as SIP server) while the `hostname` default is empty. */
  serverHost?: string;
  /** The console's listening ports, read when a URL is built (the HTTP port is known once it listens). */
  listeners?: () => Listeners;
  /** Where the PBX listens for phones: the SIP ports of the defaults until the administrator sets their own. */
  sipPorts?: SipPorts;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

/**
 * The provisioning engine: scopes with inheritance (defaults → model → phone), phones and their tokens, and
 * the PBX's SIP accounts of each phone. Every write bumps prov_state.generation, which the phone-file cache
 * of every server process watches.
 */
export class ProvisioningService {
  readonly serverHost: string;
  readonly listeners: () => Listeners;
  readonly sipPorts: SipPorts;
  readonly cache: PhoneFileCache;
  private readonly now: () => number;
  /** Writes that phone downloads queue (retired tokens); API reads wait for them. */
  beforeRead: () => Promise<void> = async () => {};
  /** Told of every change inside its transaction (other server processes hear of it when it commits). */
  onChange: (trx: Db) => Promise<void> = async () => {};

  constructor(
    readonly db: Kysely<Database>,
    options: ProvisioningOptions = {},
  ) {
    this.serverHost = options.serverHost ?? defaultServerHost();
    this.listeners = options.listeners ?? (() => ({ http: 8080, https: null }));
    this.sipPorts = options.sipPorts ?? { sip: 5060, tls: 5061 };
    this.now = options.now ?? Date.now;
    this.cache = new PhoneFileCache(db);
  }

  // ------------------------------------------------------------------------------------------ change tracking

  /** Records a change in the same transaction; `macs` narrows what this process drops from its cache. */
  private async changed(trx: Db, macs: string[] | 'all' = 'all') {
    const row = await trx
      .updateTable('prov_state')
      .set((eb) => ({ generation: eb('generation', '+', 1) }))
      .where('id', '=', 1)
      .returning('generation')
      .executeTakeFirst();
    await this.onChange(trx);
    this.cache.localChange(Number(row?.generation ?? 0), macs);
    // On PostgreSQL the change is invisible to other connections until the caller commits, and a render that runs
    // in between (the file warmer starts at once) reads the old rows and would be kept under the new epoch: a
    // phone just linked to a user fetched a file without its SIP account. Drop the same files again once the
    // change is committed. (SQLite has one connection: a render waits for the transaction to end.)
    if (trx !== this.db && isPostgres(this.db)) this.dropWhenCommitted(macs);
  }

  private dropsAwaitingCommit: Set<string> | 'all' | undefined;
  private commitWaiter: Promise<void> | undefined;

  /**
   * One waiter at a time, however many changes a bulk write records: it takes the generation row's lock, which a
   * writing transaction holds from its change to its commit, so it returns once every change queued before it
   * is committed (or rolled back), then drops those phones' files.
   */
  private dropWhenCommitted(macs: string[] | 'all') {
    // Added to in place: a bulk write records a change per phone, and copying the set each time would be quadratic.
    if (macs === 'all' || this.dropsAwaitingCommit === 'all') this.dropsAwaitingCommit = 'all';
    else {
      this.dropsAwaitingCommit ??= new Set();
      for (const mac of macs) this.dropsAwaitingCommit.add(mac);
    }
    this.commitWaiter ??= (async () => {
      while (this.dropsAwaitingCommit) {
        const drops = this.dropsAwaitingCommit;
        this.dropsAwaitingCommit = undefined;
        try {
          await this.db.selectFrom('prov_state').select('generation').where('id', '=', 1).forUpdate().execute();
        } finally {
          this.cache.drop(drops === 'all' ? 'all' : [...drops]);
        }
      }
    })()
      .catch(() => this.cache.clear())
      .finally(() => {
        this.commitWaiter = undefined;
        // A change recorded between the loop's last look and here still waits for its drop.
        if (this.dropsAwaitingCommit) this.dropWhenCommitted([]);
      });
  }

  /** Everything changed in `trx` (a restore from a backup replaced every table). */
  async allChanged(trx: Db): Promise<void> {
    await this.changed(trx, 'all');
  }

  /** Phones changed by a write made elsewhere in `trx` (bulk phones sets many models at once). */
  async phonesChanged(trx: Db, macs: string[]): Promise<void> {
    await this.changed(trx, macs);
  }

  /** Uploaded files changed: rendered files may name them. */
  async filesChanged(): Promise<void> {
    await this.changed(this.db);
  }

  /**
   * Steady-state fetches prove these phones switched to tok2: their first-access tokens stop working. One
   * transaction for a batch, since a provisioning storm retires thousands at once.
   */
  async retireTok1(entries: { mac: string; tok1: string }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const { mac, tok1 } of entries) {
        await trx
          .updateTable('prov_phones')
          .set({ tok1: null })
          .where('mac', '=', mac)
          .where('tok1', '=', tok1)
          .execute();
      }
      // No generation bump: no rendered file mentions tok1 once the phone uses tok2, and every process
      // looks first-access tokens up in the database, so none keeps accepting a retired one.
    });
  }

  /** Every phone, for warming the file cache. */
  async allPhones(): Promise<PhoneRow[]> {
    return this.db.selectFrom('prov_phones').selectAll().orderBy('mac').execute();
  }

  /** The phone owning a token, and which of its tokens it is. */
  async phoneByToken(token: string): Promise<{ row: PhoneRow; kind: 'tok1' | 'tok2' } | undefined> {
    const row = await this.db
      .selectFrom('prov_phones')
      .selectAll()
      .where((eb) => eb.or([eb('tok1', '=', token), eb('tok2', '=', token)]))
      .executeTakeFirst();
    if (!row) return undefined;
    return { row, kind: row.tok2 === token ? 'tok2' : 'tok1' };
  }

  async phoneByMac(mac: string): Promise<PhoneRow | undefined> {
    return this.db.selectFrom('prov_phones').selectAll().where('mac', '=', mac).executeTakeFirst();
  }

  // ------------------------------------------------------------------------------------------ defaults

  /** The defaults scope, with the SIP ports the PBX listens on where the administrator has set none. */
  async getDefaults(db: Db = this.db): Promise<Variables> {
    return withSipPorts(await this.storedDefaults(db), this.sipPorts);
  }

  /** The defaults scope as stored, created with the first-start values (random web passwords) when missing. */
  private async storedDefaults(db: Db): Promise<Variables> {
    const row = await db.selectFrom('prov_scopes').select('variables').where('id', '=', 'defaults').executeTakeFirst();
    if (row) return parseJson(row.variables);
    const now = this.now();
    const variables: Variables = {
      ...withoutSipPorts(SHIPPED_DEFAULTS),
      // Encryption on only where it can work from the first start: with an HTTPS listener to fetch files from.
      provisioning_url_scheme: this.listeners().https === null ? 'http' : 'https',
      timezone: serverTimeZone(),
      adminpw: randomString(10, 'abcdefghijklmnopqrstuvwxyz0123456789'),
      userpw: randomString(6, 'abcdefghijklmnopqrstuvwxyz'),
    };
    await db
      .insertInto('prov_scopes')
      .values({
        id: 'defaults',
        scope_type: 'defaults',
        display_name: null,
        variables: JSON.stringify(variables),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    // Another process may have created it first: answer what is stored.
    const stored = await db
      .selectFrom('prov_scopes')
      .select('variables')
      .where('id', '=', 'defaults')
      .executeTakeFirst();
    return stored ? parseJson(stored.variables) : variables;
  }

  async patchDefaults(patch: VariablesPatch): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const stored = await this.storedDefaults(trx);
      const current = withSipPorts(stored, this.sipPorts);
      checkTokenlessNetworks(patch);
      throwProblems(checkVariables(patch, 'defaults', current, current));
      const next = keepFollowing(stored, applyPatch(stored, patch), this.sipPorts);
      await trx
        .updateTable('prov_scopes')
        .set({ variables: JSON.stringify(next), updated_at: this.now() })
        .where('id', '=', 'defaults')
        .execute();
      await this.changed(trx);
    });
  }

  // ------------------------------------------------------------------------------------------ models

  /** A model's own variables: the writable copy if there is one, else the shipped original. */
  async findModel(
    name: string,
    db: Db = this.db,
  ): Promise<{ display_name: string | null; variables: Variables } | undefined> {
    const row = await db
      .selectFrom('prov_scopes')
      .select(['display_name', 'variables'])
      .where('id', '=', name)
      .where('scope_type', '=', 'model')
      .executeTakeFirst();
    if (row) return { display_name: row.display_name, variables: parseJson(row.variables) };
    const shipped = SHIPPED_MODELS.get(name);
    return shipped ? { display_name: shipped.display_name, variables: { ...shipped.variables } } : undefined;
  }

  async listModels(usedOnly: boolean) {
    const custom = await this.db
      .selectFrom('prov_scopes')
      .select(['id', 'display_name'])
      .where('scope_type', '=', 'model')
      .execute();
    const names = new Map<string, string>();
    for (const [name, model] of [...SHIPPED_MODELS].sort(([a], [b]) => a.localeCompare(b))) {
      names.set(name, model.display_name);
    }
    const customOnly = custom.filter((row) => !SHIPPED_MODELS.has(row.id)).sort((a, b) => a.id.localeCompare(b.id));
    for (const row of custom) if (SHIPPED_MODELS.has(row.id)) names.set(row.id, row.display_name ?? '');
    for (const row of customOnly) names.set(row.id, row.display_name ?? '');
    let used: Set<string> | undefined;
    if (usedOnly) {
      const rows = await this.db
        .selectFrom('prov_phones')
        .select('model')
        .distinct()
        .where('model', 'is not', null)
        .execute();
      used = new Set(rows.map((row) => row.model as string));
    }
    return [...names]
      .filter(([name]) => isListedModelName(name) && (!used || used.has(name)))
      .map(([name, display_name]) => ({ name, display_name, model_url: modelUrl(name) }));
  }

  async getModel(name: string, inherit: boolean): Promise<ProvModel> {
    const model = await this.findModel(name);
    if (!model) throw notFound();
    const variables = inherit ? mergeScopes(await this.getDefaults(), model.variables) : model.variables;
    return { name, display_name: model.display_name, variables, model_url: modelUrl(name) };
  }

  /**
   * The shipped version. A custom model has none: it answers an empty one (no display name, no variables), as
   * the original engine did (contract §2.4), so a client's "Reset" on it clears the model's own settings
   * instead of failing. Only an unknown model is 404.
   */
  async getOriginal(name: string): Promise<ProvModel> {
    const shipped = SHIPPED_MODELS.get(name);
    if (shipped) {
      return {
        name,
        display_name: shipped.display_name,
        variables: { ...shipped.variables },
        model_url: modelUrl(name),
      };
    }
    if (!(await this.findModel(name))) throw notFound();
    return { name, display_name: null, variables: {}, model_url: modelUrl(name) };
  }

  private async scopeIdTaken(id: string, db: Db): Promise<boolean> {
    if (id === 'defaults' || SHIPPED_MODELS.has(id)) return true;
    const scope = await db.selectFrom('prov_scopes').select('id').where('id', '=', id).executeTakeFirst();
    if (scope) return true;
    const mac = canonicalMac(id);
    if (!mac) return false;
    const phone = await db.selectFrom('prov_phones').select('mac').where('mac', '=', mac).executeTakeFirst();
    return phone !== undefined;
  }

  async createModel(body: ProvModelCreate): Promise<ProvModel> {
    const name = body.name?.trim() ?? '';
    if (name === '') throw new AppError(400, 'prov_missing_model_name');
    if (!MODEL_NAME.test(name) || name.length > MAX_MODEL_NAME_LENGTH) {
      throw new AppError(400, 'prov_invalid_model_name', undefined, { name: 'letters, digits, - _ . only' });
    }
    const variables = body.variables ?? {};
    await this.db.transaction().execute(async (trx) => {
      if (await this.scopeIdTaken(name, trx)) throw new AppError(409, 'prov_model_exists');
      const defaults = await this.getDefaults(trx);
      throwProblems(checkVariables(variables, 'model-create', defaults, mergeScopes(defaults, variables)));
      const now = this.now();
      try {
        await trx
          .insertInto('prov_scopes')
          .values({
            id: name,
            scope_type: 'model',
            display_name: body.display_name ?? name,
            variables: JSON.stringify(variables),
            created_at: now,
            updated_at: now,
          })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'prov_model_exists');
        throw error;
      }
      await this.changed(trx);
    });
    return this.getModel(name, false);
  }

  async patchModel(name: string, body: ProvModelPatch): Promise<ProvModel> {
    await this.db.transaction().execute(async (trx) => {
      const model = await this.findModel(name, trx);
      if (!model) throw notFound();
      if ('name' in body) throw new AppError(403, 'prov_read_only_attribute', undefined, { name: 'read-only' });
      if (body.variables === undefined && body.display_name === undefined) {
        throw new AppError(400, 'validation', 'Send display_name or variables.', { body: 'nothing to change' });
      }
      const patch = body.variables ?? {};
      const defaults = await this.getDefaults(trx);
      const effective = mergeScopes(defaults, model.variables);
      throwProblems(checkVariables(patch, 'model', effective, effective));
      // Copy-on-write: the first change stores the whole model, which then shadows the shipped one.
      const variables = JSON.stringify(applyPatch(model.variables, patch));
      const displayName = body.display_name ?? model.display_name;
      const now = this.now();
      await trx
        .insertInto('prov_scopes')
        .values({
          id: name,
          scope_type: 'model',
          display_name: displayName,
          variables,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('id').doUpdateSet({ display_name: displayName, variables, updated_at: now }))
        .execute();
      await this.changed(trx);
    });
    return this.getModel(name, false);
  }

  /** Removes the writable copy: a custom model disappears, a shipped one returns to its original. */
  async deleteModel(name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await this.findModel(name, trx))) throw notFound();
      const user = await trx.selectFrom('prov_phones').select('mac').where('model', '=', name).executeTakeFirst();
      if (user) throw new AppError(409, 'prov_resource_in_use');
      await trx.deleteFrom('prov_scopes').where('id', '=', name).where('scope_type', '=', 'model').execute();
      await this.changed(trx);
    });
  }

  // ------------------------------------------------------------------------------------------ phones

  async listPhones() {
    await this.beforeRead();
    const rows = await this.db
      .selectFrom('prov_phones')
      .select(['mac', 'model', 'display_name'])
      .orderBy('mac')
      .execute();
    return rows.map((row) => ({
      mac: row.mac,
      model: row.model ?? '',
      display_name: row.display_name,
      model_url: modelUrl(row.model ?? ''),
      phone_url: phoneUrl(row.mac),
    }));
  }

  private async phoneRow(mac: string, db: Db = this.db): Promise<PhoneRow> {
    const row = await db.selectFrom('prov_phones').selectAll().where('mac', '=', mac).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  /** Where phones with these variables fetch their files (scheme, host and port of a real listener). */
  origin(variables: Variables): ProvisioningOrigin {
    return provisioningOrigin(variables.hostname, variables.provisioning_url_scheme, this.serverHost, this.listeners());
  }

  /** What /provisioning/check/ping answers: when the defaults were created (Unix seconds), 0 before. */
  async pingMark(): Promise<number> {
    const row = await this.db
      .selectFrom('prov_scopes')
      .select('created_at')
      .where('id', '=', 'defaults')
      .executeTakeFirst();
    return Math.floor(Number(row?.created_at ?? 0) / 1000);
  }

  /**
   * Checks the provisioning URL phones would get with this PBX address (empty: the server's own) and
   * encryption; a malformed address is a 400.
   */
  async checkAddress(
    hostname: string,
    scheme: 'http' | 'https',
    options?: ConnectivityOptions,
  ): Promise<ConnectivityCheckResult> {
    const address = hostname.trim();
    if (address !== '' && !parseAddress(address)) {
      throw new AppError(400, 'prov_invalid_host', undefined, {
        host: 'not an IPv4 address or host name (with an optional :port)',
      });
    }
    await this.getDefaults();
    const expected = String(await this.pingMark());
    return connectivityCheck(this.origin({ hostname: address, provisioning_url_scheme: scheme }), expected, options);
  }

  /** defaults → model → phone, then the PBX accounts (which the PBX owns, so they win). */
  async effectiveVariables(row: PhoneRow, db: Db = this.db): Promise<Variables> {
    const defaults = await this.getDefaults(db);
    const model = row.model ? await this.findModel(row.model, db) : undefined;
    return mergeScopes(
      defaults,
      model?.variables,
      parseJson(row.variables),
      accountVariables(parseStoredAccounts(row.accounts)),
    );
  }

  /** The defaults scope from the file cache (phone downloads only). */
  async defaultsCached(): Promise<Variables> {
    let defaults = this.cache.scopes.get('defaults');
    if (!defaults) {
      defaults = await this.getDefaults();
      this.cache.scopes.set('defaults', defaults);
    }
    return defaults;
  }

  /** As effectiveVariables, with defaults and models from the file cache (phone downloads only). */
  async effectiveVariablesCached(row: PhoneRow): Promise<Variables> {
    const scopes = this.cache.scopes;
    const defaults = await this.defaultsCached();
    let model: Variables | undefined;
    if (row.model) {
      if (scopes.has(`model:${row.model}`)) model = scopes.get(`model:${row.model}`);
      else {
        model = (await this.findModel(row.model))?.variables;
        scopes.set(`model:${row.model}`, model);
      }
    }
    return mergeScopes(defaults, model, parseJson(row.variables), accountVariables(parseStoredAccounts(row.accounts)));
  }

  private async phoneView(row: PhoneRow, inherit: boolean): Promise<ProvPhone> {
    const effective = await this.effectiveVariables(row);
    const short = shortMac(row.mac);
    const { origin } = this.origin(effective);
    let variables = parseJson(row.variables);
    if (inherit) {
      variables = {
        ...effective,
        hostname: effective.hostname || this.serverHost,
        provisioning_url_path: 'provisioning/',
        provisioning_url_scheme: effective.provisioning_url_scheme || 'http',
      };
    }
    return {
      mac: row.mac,
      short_mac: short,
      model: row.model ?? '',
      display_name: row.display_name,
      tok1: row.tok1,
      tok2: row.tok2,
      variables,
      model_url: modelUrl(row.model ?? ''),
      provisioning_url1: row.tok1 ? provisioningUrl(origin, effective, row.tok1, short) : null,
      provisioning_url2: provisioningUrl(origin, effective, row.tok2, short),
    };
  }

  async getPhone(macInput: string, inherit: boolean): Promise<ProvPhone> {
    await this.beforeRead();
    return this.phoneView(await this.phoneRow(requireMac(macInput)), inherit);
  }

  private async requireModel(name: string | null | undefined, db: Db): Promise<string | null> {
    if (name === null || name === undefined || name === '') return null;
    if (!(await this.findModel(name, db))) {
      throw new AppError(400, 'prov_unknown_model', undefined, { model: `unknown model ${name}` });
    }
    return name;
  }

  async checkPhoneVariables(patch: VariablesPatch, model: string | null, own: Variables, db: Db) {
    const defaults = await this.getDefaults(db);
    const modelVars = model ? (await this.findModel(model, db))?.variables : undefined;
    const effective = mergeScopes(defaults, modelVars, own);
    throwProblems(checkVariables(patch, 'phone', effective, effective));
  }

  async createPhone(body: ProvPhoneCreate): Promise<ProvPhone> {
    const mac = requireMac(body.mac);
    const variables = body.variables ?? {};
    await this.db.transaction().execute(async (trx) => {
      const model = await this.requireModel(body.model, trx);
      const exists = await trx.selectFrom('prov_phones').select('mac').where('mac', '=', mac).executeTakeFirst();
      if (exists) throw new AppError(409, 'prov_phone_exists');
      // A custom model may carry a MAC-like name: scope ids are unique across kinds.
      const clash = await trx.selectFrom('prov_scopes').select('id').where('id', '=', mac).executeTakeFirst();
      if (clash) throw new AppError(409, 'prov_phone_exists');
      await this.checkPhoneVariables(variables, model, {}, trx);
      const now = this.now();
      try {
        await trx
          .insertInto('prov_phones')
          .values({
            mac,
            model,
            display_name: body.display_name ?? '',
            variables: JSON.stringify(variables),
            accounts: '[]',
            tok1: newToken(),
            tok2: newToken(),
            created_at: now,
            updated_at: now,
          })
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError(409, 'prov_phone_exists');
        throw error;
      }
      await this.changed(trx, [mac]);
    });
    return this.getPhone(mac, false);
  }

  /** Either sets the model (variables in the same body are ignored, as in the original) or merges variables. */
  async patchPhone(macInput: string, body: ProvPhonePatch): Promise<ProvPhone> {
    const mac = requireMac(macInput);
    await this.db.transaction().execute(async (trx) => {
      const row = await this.phoneRow(mac, trx);
      const readOnly = PHONE_READ_ONLY_ATTRIBUTES.filter((key) => key in body);
      if (readOnly.length > 0) {
        throw new AppError(
          403,
          'prov_read_only_attribute',
          undefined,
          Object.fromEntries(readOnly.map((key) => [key, 'read-only'])),
        );
      }
      const now = this.now();
      if ('model' in body && body.model !== undefined) {
        const model = await this.requireModel(body.model, trx);
        await trx.updateTable('prov_phones').set({ model, updated_at: now }).where('mac', '=', mac).execute();
      } else if (body.variables !== undefined) {
        const own = parseJson(row.variables);
        await this.checkPhoneVariables(body.variables, row.model, own, trx);
        await trx
          .updateTable('prov_phones')
          .set({ variables: JSON.stringify(applyPatch(own, body.variables)), updated_at: now })
          .where('mac', '=', mac)
          .execute();
      } else {
        throw new AppError(400, 'validation', 'Send model or variables.', { body: 'nothing to change' });
      }
      await this.changed(trx, [mac]);
    });
    return this.getPhone(mac, false);
  }

  async deletePhone(macInput: string): Promise<void> {
    const mac = requireMac(macInput);
    await this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('prov_phones').where('mac', '=', mac).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound();
      await this.changed(trx, [mac]);
    });
  }

  /** Re-arms first-access provisioning with a new tok1 (contract §2.3). */
  async rotateTok1(macInput: string): Promise<void> {
    const mac = requireMac(macInput);
    await this.db.transaction().execute(async (trx) => {
      await this.phoneRow(mac, trx);
      await trx
        .updateTable('prov_phones')
        .set({ tok1: newToken(), updated_at: this.now() })
        .where('mac', '=', mac)
        .execute();
      await this.changed(trx, [mac]);
    });
  }

  // ------------------------------------------------------------------------------------------ PBX accounts

  /**
   * Replaces the SIP accounts of a phone (line 1 first). Called by the PBX side when a phone is linked to a
   * user's device or the device's secret, name or encryption changes; an empty list unlinks the phone.
   * Throws 404 for an unknown phone and 400 for an invalid account.
   */
  async setPhoneAccounts(macInput: string, accounts: PhoneAccount[]): Promise<void> {
    const mac = requireMac(macInput);
    const parsed = phoneAccountsSchema.safeParse(accounts);
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((i) => [`accounts.${i.path.join('.')}`, i.message]));
      throw new AppError(400, 'validation', undefined, fields);
    }
    await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('prov_phones')
        .set({ accounts: JSON.stringify(parsed.data), updated_at: this.now() })
        .where('mac', '=', mac)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound();
      await this.changed(trx, [mac]);
    });
  }

  async getPhoneAccounts(macInput: string): Promise<StoredAccount[]> {
    return parseStoredAccounts((await this.phoneRow(requireMac(macInput))).accounts);
  }
}
