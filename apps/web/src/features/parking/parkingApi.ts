import { type ParkingLotWrite, parkedCallListSchema, parkingLotListSchema } from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const created = z.object({ id: z.number() });

export const parkingApi = {
  list: () => apiRequest('GET', '/api/parking', { schema: parkingLotListSchema }),
  create: (body: ParkingLotWrite) => apiRequest('POST', '/api/parking', { body, schema: created }),
  update: (id: number, body: ParkingLotWrite) => apiRequest('PUT', `/api/parking/${id}`, { body, schema: z.unknown() }),
  remove: (id: number) => apiRequest('DELETE', `/api/parking/${id}`, { schema: z.unknown() }),
  calls: () => apiRequest('GET', '/api/parking/calls', { schema: parkedCallListSchema }),
  pickUp: (slot: string, extension: string) =>
    apiRequest('POST', '/api/parking/calls/pickup', { body: { slot, extension }, schema: z.unknown() }),
};
