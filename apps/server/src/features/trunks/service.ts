import { type Trunk, type VoipTrunkCreate, type VoipTrunkPatch, voipProviders } from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, TrunksTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { assertMusicClass } from '../music/uses.ts';
import { assertTrunkNameFree } from '../numbering/allocate.ts';
import { isUniqueViolation } from '../users/service.ts';
import { buildTrunkSettings, trunkCodecs } from './settings.ts';

type TrunkRow = Selectable<TrunksTable>;

function toTrunk(row: TrunkRow): Trunk {
  const settings = JSON.parse(row.settings) as Record<string, string>;
  const port = Number(settings.sip_server_port);
  return {
    trunkid: Number(row.id),
    name: row.name,
    tech: 'pjsip',
    kind: row.kind,
    provider: row.provider,
    outcid: row.phone,
    username: row.username,
    codecs: row.codecs ? row.codecs.split(',') : [],
    forceCodec: Number(row.force_codec) === 1,
    continue: settings.continue === 'on',
    gateway_id: row.gateway_id === null ? null : Number(row.gateway_id),
    server: settings.sip_server || null,
    port: Number.isInteger(port) && port > 0 ? port : null,
    music: row.music,
  };
}

function trunkExists(name: string): AppError {
  return new AppError(
    409,
    'trunk_exists',
    (lang) => (lang === 'it' ? `Esiste già un fascio di nome ${name}.` : `A trunk named ${name} already exists.`),
    { name: 'exists' },
  );
}

/** VoIP trunks created from the provider catalogue; gateway port trunks are listed here too. */
export class TrunksService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: () => void = () => {},
  ) {}

  async list(): Promise<Trunk[]> {
    const rows = await this.db.selectFrom('trunks').selectAll().orderBy('id').execute();
    return rows.map(toTrunk);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('trunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(request: VoipTrunkCreate): Promise<number> {
    const provider = voipProviders.find((p) => p.provider === request.provider);
    if (!provider) throw new AppError(400, 'validation', undefined, { provider: 'Unknown provider' });
    const built = buildTrunkSettings(provider, request);
    const now = Date.now();
    try {
      const id = await this.db.transaction().execute(async (trx) => {
        await assertTrunkNameFree(trx, request.name);
        await assertMusicClass(trx, request.music, 'music');
        const row = await trx
          .insertInto('trunks')
          .values({
            name: request.name,
            kind: 'voip',
            provider: provider.provider,
            username: built.username,
            secret: built.secret,
            phone: request.phone,
            codecs: built.codecs,
            force_codec: request.forceCodec ? 1 : 0,
            settings: JSON.stringify(built.settings),
            gateway_id: null,
            port_type: null,
            port: null,
            music: request.music ?? 'default',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return Number(row.id);
      });
      this.changed();
      return id;
    } catch (error) {
      if (isUniqueViolation(error)) throw trunkExists(request.name);
      throw error;
    }
  }

  private async voipTrunk(id: number): Promise<TrunkRow> {
    const row = await this.db.selectFrom('trunks').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    if (row.kind !== 'voip') {
      throw new AppError(409, 'validation', (lang) =>
        lang === 'it'
          ? 'I fasci dei gateway si modificano dalla pagina delle linee fisiche.'
          : 'Gateway trunks are changed from the physical lines page.',
      );
    }
    return row;
  }

  /** Changes account, number and codecs; an empty or missing password keeps the stored one. */
  async patch(id: number, patch: VoipTrunkPatch): Promise<void> {
    const row = await this.voipTrunk(id);
    await assertMusicClass(this.db, patch.music, 'music');
    const provider = voipProviders.find((p) => p.provider === row.provider);
    const settings = JSON.parse(row.settings) as Record<string, string>;
    const username = patch.username ?? row.username ?? '';
    if (patch.username !== undefined) {
      settings.contact_user = patch.username;
      settings.from_user = patch.username;
    } else if (patch.phone !== undefined) {
      settings.contact_user = patch.phone;
      settings.from_user = patch.phone;
    }
    if (patch.continue !== undefined) settings.continue = patch.continue ? 'on' : 'off';
    const forceCodec = patch.forceCodec ?? Number(row.force_codec) === 1;
    const codecs = patch.codecs ? trunkCodecs(patch.codecs, forceCodec, provider?.codecs ?? '').join(',') : row.codecs;
    await this.db
      .updateTable('trunks')
      .set({
        username,
        ...(patch.password ? { secret: patch.password } : {}),
        ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
        codecs,
        force_codec: forceCodec ? 1 : 0,
        settings: JSON.stringify(settings),
        ...(patch.music !== undefined ? { music: patch.music } : {}),
        updated_at: Date.now(),
      })
      .where('id', '=', id)
      .execute();
    this.changed();
  }

  async remove(id: number): Promise<void> {
    await this.voipTrunk(id);
    await this.db.deleteFrom('trunks').where('id', '=', id).execute();
    this.changed();
  }
}
