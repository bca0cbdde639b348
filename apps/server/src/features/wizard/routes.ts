import {
  errorBodySchema,
  type ProvisioningEngine,
  provisioningEngineSchema,
  wizardStateListSchema,
  wizardStateSchema,
  wizardUpdateSchema,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import type { WizardRepository } from './repository.ts';

export const wizardRoutes =
  (
    repo: WizardRepository,
    engine: ProvisioningEngine,
    /** Whether the last apply of the PBX configuration failed: the wizard is not finalised over a failure. */
    lastApplyFailed: () => Promise<boolean> = async () => false,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/configuration/wizard',
      {
        schema: {
          tags: ['wizard'],
          summary: 'Wizard state: an empty array until the wizard is first saved',
          response: { 200: wizardStateListSchema, 401: errorBodySchema },
        },
      },
      async () => {
        const state = await repo.get();
        return state ? [state] : [];
      },
    );

    app.post(
      '/api/configuration/wizard',
      {
        schema: {
          tags: ['wizard'],
          summary:
            'Stores the wizard step and status (finalising, status "false", is refused while the last PBX apply failed)',
          body: wizardUpdateSchema,
          response: { 200: wizardStateSchema, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request) => {
        const state = { step: request.body.step, status: request.body.status };
        if (state.status === 'false' && (await repo.get())?.status !== 'false' && (await lastApplyFailed())) {
          throw new AppError(409, 'pbx_apply_failed');
        }
        await repo.set(state);
        request.log.info(state, 'wizard state saved');
        return state;
      },
    );

    app.get(
      '/api/provisioning/engine',
      {
        schema: {
          tags: ['wizard'],
          summary: 'Provisioning mode: tancredi (new, 13 steps) or freepbx (old, 11 steps)',
          response: { 200: provisioningEngineSchema, 401: errorBodySchema },
        },
      },
      // A bare string would go out as text/plain; the contract answers a JSON string.
      async (_request, reply) => reply.type('application/json').serializer(JSON.stringify).send(engine),
    );
  };
