import {
  cardPreviewRequestSchema,
  cardPreviewSchema,
  cardTemplateConvertedSchema,
  cardTemplateConvertSchema,
  cardTemplateCreateSchema,
  cardTemplateListSchema,
  cardTemplateSchema,
  cardTemplateUpdateSchema,
  customerCardCreateSchema,
  customerCardFilterSchema,
  customerCardListSchema,
  customerCardPatchSchema,
  customerCardSchema,
  errorBodySchema,
  pickUiLanguage,
  toBase64,
} from '@centralino/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { convertEjsTemplate } from './ejs.ts';
import type { CustomerCardsService } from './service.ts';

const tags = ['customer cards'];
const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
const nameParams = z.object({ name: z.string().min(1).max(80) });

export const customerCardsRoutes =
  (cards: CustomerCardsService): FastifyPluginAsyncZod =>
  async (app) => {
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      404: errorBodySchema,
      409: errorBodySchema,
      422: errorBodySchema,
    };

    app.get(
      '/api/cti/customer_card/template',
      {
        schema: {
          tags,
          summary: 'Card templates (Liquid, html as base64), the shipped ones first',
          response: { 200: cardTemplateListSchema, ...errors },
        },
      },
      () => cards.templates(),
    );

    app.post(
      '/api/cti/customer_card/template',
      {
        schema: {
          tags,
          summary: 'Creates a template under its normalised name; it must parse; an existing name is refused',
          body: cardTemplateCreateSchema,
          response: { 200: cardTemplateSchema, ...errors },
        },
      },
      (request) => cards.createTemplate(request.body),
    );

    app.post(
      '/api/cti/customer_card/template/convert',
      {
        schema: {
          tags,
          summary:
            'Converts a template of the older system (EJS) into Liquid: loops over results, value output, if/else; the rest is refused naming its line',
          body: cardTemplateConvertSchema,
          response: { 200: cardTemplateConvertedSchema, ...errors },
        },
      },
      async (request) => ({ html: toBase64(convertEjsTemplate(request.body.html)) }),
    );

    app.put(
      '/api/cti/customer_card/template/:name',
      {
        schema: {
          tags,
          summary: 'Replaces the text of the template named in the path (name or name_custom)',
          params: nameParams,
          body: cardTemplateUpdateSchema,
          response: { 200: cardTemplateSchema, ...errors },
        },
      },
      (request) => cards.updateTemplate(request.params.name, request.body.html),
    );

    app.delete(
      '/api/cti/customer_card/template/:name',
      {
        schema: {
          tags,
          summary: 'Deletes a custom template that no card uses (409 naming the cards otherwise)',
          params: nameParams,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await cards.removeTemplate(request.params.name);
        return reply.code(200).send(null);
      },
    );

    app.get(
      '/api/cti/customer_card',
      {
        schema: {
          tags,
          summary: 'Cards, optionally those of one source (dbconn_id) or one template (template)',
          querystring: customerCardFilterSchema,
          response: { 200: customerCardListSchema, ...errors },
        },
      },
      (request) => cards.cards(request.query),
    );

    app.post(
      '/api/cti/customer_card',
      {
        schema: {
          tags,
          summary: 'Creates a card, its cc_* permission and the profiles holding it',
          body: customerCardCreateSchema,
          response: { 200: customerCardSchema, ...errors },
        },
      },
      (request) => cards.createCard(request.body),
    );

    app.put(
      '/api/cti/customer_card/:id',
      {
        schema: {
          tags,
          summary: 'Changes a card; profiles, when given, replaces the profiles holding its permission',
          params: idParams,
          body: customerCardPatchSchema,
          response: { 200: customerCardSchema, ...errors },
        },
      },
      (request) => cards.updateCard(request.params.id, request.body),
    );

    app.delete(
      '/api/cti/customer_card/:id',
      {
        schema: {
          tags,
          summary: 'Deletes a card with its permission and the profiles’ links',
          params: idParams,
          response: { 200: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await cards.removeCard(request.params.id);
        return reply.code(200).send(null);
      },
    );

    app.post(
      '/api/custcard/preview',
      {
        schema: {
          tags,
          summary:
            'Runs a query on a source ($NUMBER bound to the test number; read-only, 100 rows, 5 s) and renders a template',
          body: cardPreviewRequestSchema,
          response: { 200: cardPreviewSchema, ...errors, 503: errorBodySchema },
        },
      },
      (request) => cards.preview(request.body, pickUiLanguage(request.headers['accept-language'])),
    );
  };
