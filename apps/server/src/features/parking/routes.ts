import {
  errorBodySchema,
  parkedCallListSchema,
  parkedCallPickupSchema,
  parkingLotListSchema,
  parkingLotWriteSchema,
  parkingSlots,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { crudRoutes } from '../flows/crud-routes.ts';
import type { ParkingLive } from './live.ts';
import type { ParkingService } from './service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};

/**
 * Parking lots (issue 42 item 2): the CRUD routes mark the PBX configuration changed (res_parking.conf, the parking
 * dialplan); the parked calls and "Pick up on…" are live state over AMI and change no file (dirty-hook.ts skips them).
 */
export const parkingRoutes =
  (db: Kysely<Database>, lots: ParkingService, live: ParkingLive): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['parking'];
    crudRoutes(app, {
      path: '/api/parking',
      tags,
      errors,
      list: parkingLotListSchema,
      write: parkingLotWriteSchema,
      summaries: {
        list: 'Parking lots',
        create: 'Creates a lot; its number and every slot are checked like extensions (422 names the holder)',
        update: 'Changes a lot (calls parked in it stay until picked up or timed out)',
        remove: 'Deletes a lot; refused while routes or flows send calls to it',
      },
      ops: lots,
    });
    app.get(
      '/api/parking/calls',
      {
        schema: {
          tags,
          summary: 'Calls parked now, in every lot (AMI ParkedCalls and events); 503 when the PBX is not connected',
          response: { 200: parkedCallListSchema, ...errors },
        },
      },
      async () => {
        const calls = await live.calls();
        const numbers = [...new Set(calls.map((c) => c.parker_number).filter(Boolean))];
        if (numbers.length === 0) return calls;
        // The parker's device number names its user (a main extension or one of their devices).
        const rows = await db
          .selectFrom('devices')
          .innerJoin('users', 'users.id', 'devices.user_id')
          .select(['devices.extension', 'users.displayname'])
          .where('devices.extension', 'in', numbers)
          .execute();
        const names = new Map(rows.map((r) => [r.extension as string, r.displayname]));
        return calls.map((c) => ({ ...c, parker_name: names.get(c.parker_number) ?? '' }));
      },
    );
    app.post(
      '/api/parking/calls/pickup',
      {
        schema: {
          tags,
          summary: "Rings a user's phone; answered, it takes the call parked in the slot (AMI Originate)",
          body: parkedCallPickupSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { slot, extension } = request.body;
        const lot = (await lots.list()).find((l) => parkingSlots(l.first_slot, l.slots).includes(slot));
        if (!lot) {
          throw new AppError(404, 'not_found', (lang) =>
            lang === 'it' ? `Il posto ${slot} non è di nessun parcheggio.` : `Slot ${slot} is in no parking lot.`,
          );
        }
        const user = await db
          .selectFrom('users')
          .select(['displayname'])
          .where('default_extension', '=', extension)
          .executeTakeFirst();
        if (!user) {
          throw new AppError(
            422,
            'user_not_found',
            (lang) =>
              lang === 'it' ? `Nessun utente ha l'interno ${extension}.` : `No user has extension ${extension}.`,
            (lang) => ({
              extension:
                lang === 'it' ? `Nessun utente ha l'interno ${extension}` : `No user has extension ${extension}`,
            }),
          );
        }
        await live.pickUp(lot.id, slot, extension, `"Parked ${slot}" <${slot}>`);
        return reply.code(204).send(null);
      },
    );
  };
