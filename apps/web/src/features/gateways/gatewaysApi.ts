import {
  type GatewayCreate,
  gatewayCreatedSchema,
  gatewayListSchema,
  gatewayManufacturersSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { usersApi } from '../users/usersApi.ts';

const status = z.object({ status: z.literal(true) });

/** Calls of the physical lines screen (contract §3.4–§3.14). */
export const gatewaysApi = {
  // The original sends a network hash; the server lists the same whatever it is.
  list: () => apiRequest('GET', '/api/devices/gateways/list/main', { schema: gatewayListSchema }),
  manufacturers: () => apiRequest('GET', '/api/devices/gateways/manufacturers', { schema: gatewayManufacturersSchema }),
  create: (body: GatewayCreate) => apiRequest('POST', '/api/devices/gateways', { body, schema: gatewayCreatedSchema }),
  remove: (id: number) => apiRequest('DELETE', `/api/devices/gateways/${id}`, { schema: status }),
  push: (name: string, mac: string) =>
    apiRequest('POST', '/api/devices/gateways/push', { body: { name, mac }, schema: status }),
  /** The configuration file's text. */
  download: async (id: number) => {
    const base64 = await apiRequest('GET', `/api/devices/gateways/download/${id}`, { schema: z.string() });
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  },
  /** Users with a main extension, for the FXS ports. */
  usersWithExtension: async () => (await usersApi.configured({ sort: 'extension', limit: 500 })).users,
};
