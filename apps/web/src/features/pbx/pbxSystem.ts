import { type PbxSystemStatus, pbxLogSchema, pbxSystemStatusSchema } from '@centralino/contract';
import type { TFunction } from 'i18next';
import { apiRequest } from '../../api/client.ts';

export const pbxSystemApi = {
  status: () => apiRequest('GET', '/api/pbx/system', { schema: pbxSystemStatusSchema }),
  log: (search: string) =>
    apiRequest('GET', `/api/pbx/system/log?${new URLSearchParams({ ...(search ? { search } : {}), limit: '500' })}`, {
      schema: pbxLogSchema,
    }),
};

/** "3 h 12 min", "2 d 4 h", "45 s". */
export function uptimeText(t: TFunction, seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return t('pbxSystem.uptimeDays', { d, h });
  if (h > 0) return t('pbxSystem.uptimeHours', { h, m });
  if (m > 0) return t('pbxSystem.uptimeMinutes', { m });
  return t('pbxSystem.uptimeSeconds', { s: seconds });
}

export const stateColor = (state: PbxSystemStatus['state']) =>
  state === 'running' ? 'teal' : state === 'failed' ? 'red' : state === 'stopped' ? 'gray' : 'orange';
