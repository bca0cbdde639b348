import {
  type CardSourceCreate,
  type CardSourcePatch,
  type CardSourceTest,
  cardSourceListSchema,
  cardSourceSchema,
  cardSourceTestResultSchema,
  cardSourceTypesSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

/*
 * Templates, cards and the preview (contract api-admin §6.4–§6.6). Ids may come as numbers or as the
 * original's strings: both are read, and kept as strings on screen.
 */
const id = z.union([z.number(), z.string()]).transform(String);

export const templateSchema = z.object({
  name: z.string(),
  custom: z.boolean(),
  /** base64 of the template's text. */
  html: z.string(),
  color: z.string().nullable().optional(),
  /** One of the four shipped templates: changed but never deleted. */
  builtin: z.boolean().optional(),
});
export type Template = z.infer<typeof templateSchema>;

export const cardSchema = z.object({
  id,
  name: z.string(),
  creation: z.string().optional(),
  /** base64 of the SQL. */
  query: z.string(),
  template: z.object({ name: z.string(), custom: z.boolean() }),
  dbconn_id: id,
  permission_id: id.nullable().optional(),
  profiles: z.array(id),
});
export type Card = z.infer<typeof cardSchema>;

export interface TemplateWrite {
  name: string;
  custom: boolean;
  html: string;
}

export interface CardWrite {
  name: string;
  query: string;
  template: string;
  dbconn_id: string;
  profiles: string[];
}

export interface PreviewRequest {
  dbconn_id: string;
  /** A stored template (`name` or `name_custom`)… */
  template?: string;
  /** …or the base64 text of one being edited. */
  html?: string;
  query: string;
  /** The test caller number bound where the query says `$NUMBER`. */
  number?: string;
}

/** The preview's answer: the rendered card, and the rows when the server gives them. */
export const previewSchema = z
  .object({
    html: z.string(),
    columns: z.array(z.string()).optional(),
    rows: z.array(z.record(z.string(), z.string().nullable())).optional(),
    truncated: z.boolean().optional(),
  })
  .loose();
export type Preview = z.infer<typeof previewSchema>;

const anything = z.unknown();

export const cardsApi = {
  sources: () => apiRequest('GET', '/api/cti/dbconn', { schema: cardSourceListSchema }),
  sourceTypes: () => apiRequest('GET', '/api/cti/dbconn/type', { schema: cardSourceTypesSchema }),
  createSource: (body: CardSourceCreate) => apiRequest('POST', '/api/cti/dbconn', { body, schema: cardSourceSchema }),
  updateSource: (sourceId: string, body: CardSourcePatch) =>
    apiRequest('PUT', `/api/cti/dbconn/${encodeURIComponent(sourceId)}`, { body, schema: cardSourceSchema }),
  removeSource: (sourceId: string) =>
    apiRequest('DELETE', `/api/cti/dbconn/${encodeURIComponent(sourceId)}`, { schema: z.null() }),
  testSource: (body: CardSourceTest) =>
    apiRequest('POST', '/api/dbconn/test', { body, schema: cardSourceTestResultSchema }),

  templates: () => apiRequest('GET', '/api/cti/customer_card/template', { schema: z.array(templateSchema) }),
  createTemplate: (body: TemplateWrite) =>
    apiRequest('POST', '/api/cti/customer_card/template', { body, schema: anything }),
  updateTemplate: (name: string, body: TemplateWrite) =>
    apiRequest('PUT', `/api/cti/customer_card/template/${encodeURIComponent(name)}`, { body, schema: anything }),
  removeTemplate: (name: string) =>
    apiRequest('DELETE', `/api/cti/customer_card/template/${encodeURIComponent(name)}`, { schema: anything }),

  cards: (filter?: { dbconn_id: string } | { template: string }) => {
    const query = filter ? `?${new URLSearchParams(filter as Record<string, string>)}` : '';
    return apiRequest('GET', `/api/cti/customer_card${query}`, { schema: z.array(cardSchema) });
  },
  createCard: (body: CardWrite) => apiRequest('POST', '/api/cti/customer_card', { body, schema: anything }),
  updateCard: (cardId: string, body: CardWrite) =>
    apiRequest('PUT', `/api/cti/customer_card/${encodeURIComponent(cardId)}`, { body, schema: anything }),
  removeCard: (cardId: string) =>
    apiRequest('DELETE', `/api/cti/customer_card/${encodeURIComponent(cardId)}`, { schema: anything }),

  preview: (body: PreviewRequest) => apiRequest('POST', '/api/custcard/preview', { body, schema: previewSchema }),
};
