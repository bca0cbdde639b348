import {
  type CallRecordingSettings,
  callRecordingSettingsSchema,
  callRecordingStatusSchema,
} from '@centralino/contract';
import { apiRequest } from '../../api/client.ts';

export const recordingsApi = {
  settings: () => apiRequest('GET', '/api/call-recordings/settings', { schema: callRecordingSettingsSchema }),
  saveSettings: (body: CallRecordingSettings) =>
    apiRequest('PUT', '/api/call-recordings/settings', { body, schema: callRecordingSettingsSchema }),
  status: () => apiRequest('GET', '/api/call-recordings/status', { schema: callRecordingStatusSchema }),
};

/** "1.5 GB" for a byte count (powers of 1024, one decimal past a megabyte). */
export function formatBytes(bytes: number, language: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit >= 2 ? 1 : 0;
  return `${value.toLocaleString(language, { maximumFractionDigits: digits })} ${units[unit]}`;
}
