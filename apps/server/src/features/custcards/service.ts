import {
  CARD_PERMISSION_BASE,
  type CardPreview,
  type CardTemplate,
  type CustomerCard,
  cardPermissionName,
  cardTemplateColor,
  cardTemplateName,
  normaliseCallerNumber,
  parseTemplateRef,
  toBase64,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { CardSourcesTable, CustomerCardsTable, Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SourceConnection } from '../card-sources/connect.ts';
import { isUniqueViolation } from '../users/service.ts';
import { CardTemplates } from './liquid.ts';
import type { CardQueryRunner, QueryResult, QueryTarget } from './run-query.ts';

/** What the routes hand over after the contract schemas parsed (and base64-decoded) the body. */
export interface CardFields {
  name: string;
  query: string;
  /** `name` or `name_custom`. */
  template: string;
  dbconn_id: number;
  profiles: number[];
}

function names(list: string[], lang: UiLanguage): string {
  const quoted = list.map((n) => `'${n}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${lang === 'it' ? 'e' : 'and'} ${quoted.at(-1)}`;
}

/**
 * Templates and cards (contract api-admin §6.4, 6.5) and the preview (§6.6). A card is also a permission of the
 * customer_card macro: `cc_<name>`, answered by the CTI profiles' catalogue (`features/cti`) with id
 * CARD_PERMISSION_BASE + card id, and held by profiles as rows of cti_profile_permissions like every other
 * permission. Sources and templates that cards use cannot be deleted (409 naming the cards).
 */
export class CustomerCardsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly runner: CardQueryRunner,
    private readonly now: () => number = Date.now,
    /** Parses and renders templates on threads of their own, under CARD_LIMITS. */
    private readonly liquid = new CardTemplates(),
  ) {}

  close(): Promise<void> {
    return this.liquid.close();
  }

  // ---- templates ----

  async templates(): Promise<CardTemplate[]> {
    const rows = await this.db
      .selectFrom('card_templates')
      .selectAll()
      .orderBy('builtin', 'desc')
      .orderBy('name')
      .execute();
    return rows.map((row) => ({
      name: row.name,
      custom: Number(row.custom) === 1,
      html: toBase64(row.html),
      color: cardTemplateColor(row.html),
      builtin: Number(row.builtin) === 1,
    }));
  }

  /** Stores a new template under its normalised name; the text must parse. An existing name is refused. */
  async createTemplate(body: { name: string; custom: boolean; html: string }): Promise<CardTemplate> {
    const name = cardTemplateName(body.name);
    await this.liquid.check(body.html);
    const now = this.now();
    try {
      await this.db
        .insertInto('card_templates')
        .values({ name, custom: body.custom ? 1 : 0, builtin: 0, html: body.html, created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw this.templateExists(name);
      throw error;
    }
    return this.template(name);
  }

  /** Replaces the text of the template named in the path (the original took the name from the body). */
  async updateTemplate(ref: string, html: string): Promise<CardTemplate> {
    const name = await this.templateName(ref);
    await this.liquid.check(html);
    await this.db
      .updateTable('card_templates')
      .set({ html, updated_at: this.now() })
      .where('name', '=', name)
      .execute();
    return this.template(name);
  }

  /** Deletes a custom template no card uses; the shipped ones and those in use are refused. */
  async removeTemplate(ref: string): Promise<void> {
    const name = await this.templateName(ref);
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('card_templates').select('builtin').where('name', '=', name).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      if (Number(row.builtin) === 1) throw new AppError(409, 'card_template_builtin');
      const users = await trx
        .selectFrom('customer_cards')
        .select('name')
        .where('template', '=', name)
        .orderBy('name')
        .execute();
      if (users.length > 0) {
        const list = users.map((u) => u.name);
        throw new AppError(
          409,
          'card_template_in_use',
          (lang) =>
            lang === 'it'
              ? `Il modello ${name} è usato dalle schede ${names(list, lang)}: eliminale o assegna loro un altro modello.`
              : `Template ${name} is used by the cards ${names(list, lang)}: delete them or give them another template.`,
          { cards: list.join(', ') },
        );
      }
      await trx.deleteFrom('card_templates').where('name', '=', name).execute();
    });
  }

  private async template(name: string): Promise<CardTemplate> {
    const found = (await this.templates()).find((t) => t.name === name);
    if (!found) throw new AppError(404, 'not_found');
    return found;
  }

  /** The stored name of `name`, `name_custom` or `My Name`; 404 when there is none. */
  private async templateName(ref: string): Promise<string> {
    const name = cardTemplateName(parseTemplateRef(ref).name);
    const row = await this.db.selectFrom('card_templates').select('name').where('name', '=', name).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row.name;
  }

  private templateExists(name: string): AppError {
    return new AppError(
      409,
      'card_template_exists',
      (lang) => (lang === 'it' ? `Esiste già un modello di nome ${name}.` : `A template named ${name} already exists.`),
      { name: 'exists' },
    );
  }

  // ---- cards ----

  /** Cards, optionally those of one source or one template (`name` or `name_custom`: both forms match). */
  async cards(filter: { dbconn_id?: number; template?: string } = {}): Promise<CustomerCard[]> {
    let query = this.db
      .selectFrom('customer_cards')
      .innerJoin('card_templates', 'card_templates.name', 'customer_cards.template')
      .selectAll('customer_cards')
      .select('card_templates.custom as template_custom')
      .orderBy('customer_cards.id');
    if (filter.dbconn_id !== undefined) query = query.where('customer_cards.dbconn_id', '=', filter.dbconn_id);
    else if (filter.template !== undefined)
      query = query.where('customer_cards.template', '=', cardTemplateName(parseTemplateRef(filter.template).name));
    const rows = await query.execute();
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('cti_profile_permissions')
      .select(['profile_id', 'permission'])
      .where(
        'permission',
        'in',
        rows.map((r) => r.permission),
      )
      .orderBy('profile_id')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      creation: new Date(Number(row.created_at)).toISOString(),
      query: toBase64(row.query),
      template: { name: row.template, custom: Number(row.template_custom) === 1 },
      dbconn_id: Number(row.dbconn_id),
      permission_id: CARD_PERMISSION_BASE + Number(row.id),
      profiles: links.filter((l) => l.permission === row.permission).map((l) => Number(l.profile_id)),
    }));
  }

  async card(id: number): Promise<CustomerCard> {
    const found = (await this.cards()).find((c) => c.id === id);
    if (!found) throw new AppError(404, 'not_found');
    return found;
  }

  /** Creates the card, its permission and the profiles' links in one transaction. */
  async createCard(fields: CardFields): Promise<CustomerCard> {
    const id = await this.db.transaction().execute(async (trx) => {
      const template = await this.checkRefs(trx, fields);
      const permission = cardPermissionName(fields.name);
      const taken = await trx
        .selectFrom('customer_cards')
        .select('name')
        .where('permission', '=', permission)
        .executeTakeFirst();
      if (taken) throw this.cardExists(fields.name, taken.name);
      let row: { id: number };
      try {
        row = await trx
          .insertInto('customer_cards')
          .values({
            name: fields.name,
            permission,
            query: fields.query,
            template,
            dbconn_id: fields.dbconn_id,
            created_at: this.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      } catch (error) {
        if (isUniqueViolation(error)) throw this.cardExists(fields.name, fields.name);
        throw error;
      }
      await this.link(trx, permission, fields.profiles);
      return Number(row.id);
    });
    return this.card(id);
  }

  /** Changes the given fields; `profiles`, when given, replaces the profiles holding the card's permission. */
  async updateCard(id: number, fields: Partial<CardFields>): Promise<CustomerCard> {
    await this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('customer_cards').selectAll().where('id', '=', id).executeTakeFirst();
      if (!current) throw new AppError(404, 'not_found');
      const template = await this.checkRefs(trx, {
        template: fields.template ?? current.template,
        dbconn_id: fields.dbconn_id ?? Number(current.dbconn_id),
        profiles: fields.profiles,
      });
      const changes: Partial<Selectable<CustomerCardsTable>> = {
        template,
        dbconn_id: fields.dbconn_id ?? Number(current.dbconn_id),
      };
      if (fields.name !== undefined) changes.name = fields.name;
      if (fields.query !== undefined) changes.query = fields.query;
      await trx.updateTable('customer_cards').set(changes).where('id', '=', id).execute();
      if (fields.profiles !== undefined) await this.link(trx, current.permission, fields.profiles);
    });
    return this.card(id);
  }

  /** Deletes the card, its permission and every profile's link to it. */
  async removeCard(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('customer_cards')
        .select('permission')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!current) throw new AppError(404, 'not_found');
      await trx.deleteFrom('cti_profile_permissions').where('permission', '=', current.permission).execute();
      await trx.deleteFrom('customer_cards').where('id', '=', id).execute();
    });
  }

  /** Names of the cards that use a source, for the source's delete refusal. */
  async cardsOfSource(sourceId: number, db: Kysely<Database> = this.db): Promise<string[]> {
    const rows = await db
      .selectFrom('customer_cards')
      .select('name')
      .where('dbconn_id', '=', sourceId)
      .orderBy('name')
      .execute();
    return rows.map((r) => r.name);
  }

  private cardExists(name: string, holder: string): AppError {
    return new AppError(
      409,
      'card_exists',
      (lang) =>
        lang === 'it'
          ? `La scheda ${holder} ha già il permesso ${cardPermissionName(name)}: scegli un altro nome.`
          : `The card ${holder} already has the permission ${cardPermissionName(name)}: choose another name.`,
      { name: 'exists' },
    );
  }

  /** Source, template and profiles must exist (422 with the field otherwise); answers the template's stored name. */
  private async checkRefs(
    trx: Kysely<Database>,
    fields: { template: string; dbconn_id: number; profiles?: number[] },
  ): Promise<string> {
    const problems: Record<UiLanguage, Record<string, string>> = { en: {}, it: {} };
    const templateName = cardTemplateName(parseTemplateRef(fields.template).name);
    const template = await trx
      .selectFrom('card_templates')
      .select('name')
      .where('name', '=', templateName)
      .executeTakeFirst();
    if (!template) {
      problems.en.template = `No template named ${fields.template}`;
      problems.it.template = `Nessun modello di nome ${fields.template}`;
    }
    const source = await trx
      .selectFrom('card_sources')
      .select('id')
      .where('id', '=', fields.dbconn_id)
      .executeTakeFirst();
    if (!source) {
      problems.en.dbconn_id = `No source with id ${fields.dbconn_id}`;
      problems.it.dbconn_id = `Nessuna sorgente con id ${fields.dbconn_id}`;
    }
    if (fields.profiles !== undefined) {
      const wanted = [...new Set(fields.profiles)];
      const found =
        wanted.length === 0
          ? []
          : await trx.selectFrom('cti_profiles').select('id').where('id', 'in', wanted).execute();
      const missing = wanted.filter((p) => !found.some((f) => Number(f.id) === p));
      if (missing.length > 0) {
        problems.en.profiles = `No profile with id ${missing.join(', ')}`;
        problems.it.profiles = `Nessun profilo con id ${missing.join(', ')}`;
      }
    }
    if (Object.keys(problems.en).length > 0) {
      throw new AppError(
        422,
        'validation',
        (lang) => Object.values(problems[lang]).join('; '),
        (lang) => problems[lang],
      );
    }
    return templateName;
  }

  private async link(trx: Kysely<Database>, permission: string, profiles: number[]): Promise<void> {
    await trx.deleteFrom('cti_profile_permissions').where('permission', '=', permission).execute();
    const wanted = [...new Set(profiles)];
    if (wanted.length > 0) {
      await trx
        .insertInto('cti_profile_permissions')
        .values(wanted.map((profile_id) => ({ profile_id, permission })))
        .execute();
    }
  }

  // ---- preview ----

  /**
   * Runs the query on the source with the test number for `$NUMBER` and renders the stored template (or the
   * text being edited). Connection, query and template problems are error answers with their reason.
   */
  async preview(
    body: {
      dbconn_id: number;
      template?: string;
      html?: string;
      query: string;
      number?: string;
    },
    lang: UiLanguage,
  ): Promise<CardPreview> {
    const started = performance.now();
    let text = body.html;
    if (text === undefined) {
      const name = await this.templateName(body.template ?? '');
      const row = await this.db
        .selectFrom('card_templates')
        .select('html')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      text = row.html;
    }
    // A template that does not parse is answered before the query runs.
    await this.liquid.check(text);
    const source = await this.db
      .selectFrom('card_sources')
      .selectAll()
      .where('id', '=', body.dbconn_id)
      .executeTakeFirst();
    if (!source) throw new AppError(404, 'not_found', undefined, { dbconn_id: 'unknown' });
    const result = await this.runner.run(this.target(source), body.query, normaliseCallerNumber(body.number ?? ''));
    const html = await this.liquid.render(text, result.rows, lang);
    return {
      html: toBase64(html),
      columns: result.columns,
      rows: result.rows.map((row) => {
        const out: Record<string, string | null> = {};
        for (const [key, value] of Object.entries(row)) out[key] = value === null ? null : String(value);
        return out;
      }),
      truncated: result.truncated,
      elapsed_ms: Math.round(performance.now() - started),
    };
  }

  /**
   * Runs a query on a source with the caller's number bound, as a card does (read-only, row limit, timeout):
   * caller query routing asks this at call time. A missing source is a 404.
   */
  async runOnSource(sourceId: number, query: string, number: string): Promise<QueryResult> {
    const source = await this.db.selectFrom('card_sources').selectAll().where('id', '=', sourceId).executeTakeFirst();
    if (!source) throw new AppError(404, 'not_found');
    return this.runner.run(this.target(source), query, normaliseCallerNumber(number));
  }

  private ownTables: Promise<string[]> | undefined;

  /** Every table and view of Centralino's database, read once (they change only with migrations). */
  private tables(): Promise<string[]> {
    this.ownTables ??= this.db.introspection
      .getTables({ withInternalKyselyTables: true })
      .then((tables) => tables.map((t) => t.name))
      .catch((error) => {
        this.ownTables = undefined;
        throw error;
      });
    return this.ownTables;
  }

  private target(source: Selectable<CardSourcesTable>): QueryTarget {
    if (Number(source.builtin) === 1) return { kind: 'builtin', source: source.name, ownTables: () => this.tables() };
    const connection: SourceConnection = {
      type: source.type as SourceConnection['type'],
      host: source.host ?? '',
      port: Number(source.port),
      user: source.user ?? '',
      password: source.password ?? '',
      name: source.name,
    };
    return { kind: 'external', connection };
  }
}
