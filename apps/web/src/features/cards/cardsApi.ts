import {
  type CardPreviewRequest,
  type CardSourceCreate,
  type CardSourcePatch,
  type CardSourceTest,
  type CardTemplate,
  type CardTemplateCreate,
  type CardTemplateUpdate,
  type CustomerCard,
  type CustomerCardCreate,
  type CustomerCardPatch,
  cardPreviewSchema,
  cardSourceListSchema,
  cardSourceSchema,
  cardSourceTestResultSchema,
  cardSourceTypesSchema,
  cardTemplateConvertedSchema,
  cardTemplateListSchema,
  customerCardListSchema,
} from '@centralino/contract';
import type { QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

export type Template = CardTemplate;
export type Card = CustomerCard;
export type { CardPreview as Preview } from '@centralino/contract';

/** Write calls answer little the screen uses: whatever they answer is accepted, the lists are read again. */
const anything = z.unknown();

/** Calls of the customer cards screen (contract api-admin §6). */
export const cardsApi = {
  sources: () => apiRequest('GET', '/api/cti/dbconn', { schema: cardSourceListSchema }),
  sourceTypes: () => apiRequest('GET', '/api/cti/dbconn/type', { schema: cardSourceTypesSchema }),
  createSource: (body: CardSourceCreate) => apiRequest('POST', '/api/cti/dbconn', { body, schema: cardSourceSchema }),
  updateSource: (sourceId: number, body: CardSourcePatch) =>
    apiRequest('PUT', `/api/cti/dbconn/${sourceId}`, { body, schema: cardSourceSchema }),
  removeSource: (sourceId: number) => apiRequest('DELETE', `/api/cti/dbconn/${sourceId}`, { schema: z.null() }),
  testSource: (body: CardSourceTest) =>
    apiRequest('POST', '/api/dbconn/test', { body, schema: cardSourceTestResultSchema }),

  templates: () => apiRequest('GET', '/api/cti/customer_card/template', { schema: cardTemplateListSchema }),
  createTemplate: (body: CardTemplateCreate) =>
    apiRequest('POST', '/api/cti/customer_card/template', { body, schema: anything }),
  /** An older system's EJS template turned into Liquid (base64 both ways); what cannot be is refused with its line. */
  convertTemplate: (html: string) =>
    apiRequest('POST', '/api/cti/customer_card/template/convert', {
      body: { html },
      schema: cardTemplateConvertedSchema,
    }),
  /** `ref` is the template as cards name it: `name`, or `name_custom`. */
  updateTemplate: (ref: string, body: CardTemplateUpdate) =>
    apiRequest('PUT', `/api/cti/customer_card/template/${encodeURIComponent(ref)}`, { body, schema: anything }),
  removeTemplate: (ref: string) =>
    apiRequest('DELETE', `/api/cti/customer_card/template/${encodeURIComponent(ref)}`, { schema: anything }),

  /** All cards, or those using a source (`dbconn_id`) or a template (`name` or `name_custom`). */
  cards: (filter?: { dbconn_id: number } | { template: string }) => {
    const query = filter ? `?${new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]))}` : '';
    return apiRequest('GET', `/api/cti/customer_card${query}`, { schema: customerCardListSchema });
  },
  createCard: (body: CustomerCardCreate) => apiRequest('POST', '/api/cti/customer_card', { body, schema: anything }),
  updateCard: (cardId: number, body: CustomerCardPatch) =>
    apiRequest('PUT', `/api/cti/customer_card/${cardId}`, { body, schema: anything }),
  removeCard: (cardId: number) => apiRequest('DELETE', `/api/cti/customer_card/${cardId}`, { schema: anything }),

  /** Runs a query on a source and renders a stored template (or the text of one being edited). */
  preview: (body: CardPreviewRequest) =>
    apiRequest('POST', '/api/custcard/preview', { body, schema: cardPreviewSchema }),
};

/**
 * After a change: the three lists (and the dependency lists) are read again. Connection checks run again only
 * for a source whose fields changed (their key holds them), or for every source when `checks` is set; open
 * previews are left as they are. Not awaited by the modals, which close at once.
 */
export function refreshLists(queryClient: QueryClient, checks = false): Promise<void> {
  return queryClient.invalidateQueries({
    queryKey: ['cards'],
    predicate: (query) => {
      const part = query.queryKey[1];
      return part === 'sources' || part === 'templates' || part === 'cards' || (checks && part === 'check');
    },
  });
}
