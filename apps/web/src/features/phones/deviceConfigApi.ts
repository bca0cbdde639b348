import { phoneListSchema, phoneManufacturersSchema } from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

/** Phone calls of the old-mode device screen and of the per-user screens (contract api-admin §3.3–§3.9). */
export const deviceConfigApi = {
  manufacturers: () => apiRequest('GET', '/api/devices/phones/manufacturers', { schema: phoneManufacturersSchema }),
  /** Every phone and custom device of the PBX, with the line (user and extension) each is linked to. */
  phones: () => apiRequest('GET', '/api/devices/phones/list', { schema: phoneListSchema }),
  setModel: (mac: string, vendor: string, model: string) =>
    apiRequest('POST', '/api/devices/phones/model', { body: { mac, vendor, model }, schema: z.unknown() }),
  /** Prepares the phone's configuration (model and account) for its next fetch. */
  provision: (mac: string) =>
    apiRequest('POST', '/api/devices/phones/provision', { body: { mac }, schema: z.unknown() }),
};
