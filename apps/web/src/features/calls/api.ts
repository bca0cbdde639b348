import {
  type Call,
  type CallFilters,
  type CallQuery,
  callDetailSchema,
  callFiltersSchema,
  callPageSchema,
} from '@centralino/contract';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { downloadFile, queryString } from '../../api/download.ts';

export const callsApi = {
  page: (query: CallQuery) => apiRequest('GET', `/api/calls?${queryString(query)}`, { schema: callPageSchema }),
  detail: (id: number) => apiRequest('GET', `/api/calls/${id}`, { schema: callDetailSchema }),
  backlog: () => apiRequest('GET', '/api/calls/backlog', { schema: z.object({ records: z.number() }) }),
  recordingLink: (id: number) =>
    apiRequest('GET', `/api/calls/${id}/recording/link`, {
      schema: z.object({ url: z.string(), expires: z.number() }),
    }),
  downloadRecording: (call: Call) =>
    downloadFile(
      `/api/calls/${call.id}/recording`,
      `call-${new Date(call.at).toISOString().slice(0, 19).replace(/[:T]/g, '-')}-${call.id}.wav`,
    ),
  exportCsv: (filters: CallFilters) =>
    downloadFile(`/api/calls/export?${queryString(filters)}`, `calls-${new Date().toISOString().slice(0, 10)}.csv`),
};

/** The filters a URL carries (a shared view); what does not pass the contract's schema is left out. */
export function filtersOfUrl(params: URLSearchParams): CallFilters {
  const out: Record<string, string> = {};
  for (const key of Object.keys(callFiltersSchema.shape)) {
    const value = params.get(key);
    if (value && callFiltersSchema.shape[key as keyof CallFilters].safeParse(value).success) out[key] = value;
  }
  return out as CallFilters;
}

export type DatePreset = 'today' | 'yesterday' | 'week' | 'last30';

/** A day as YYYY-MM-DD in the browser's zone. */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The days of a preset, counted from `now` (weeks start on Monday). */
export function presetRange(preset: DatePreset, now = new Date()): { from: string; to: string } {
  const day = (offset: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() + offset);
    return isoDay(d);
  };
  switch (preset) {
    case 'today':
      return { from: day(0), to: day(0) };
    case 'yesterday':
      return { from: day(-1), to: day(-1) };
    case 'week':
      return { from: day(-((now.getDay() + 6) % 7)), to: day(0) };
    case 'last30':
      return { from: day(-29), to: day(0) };
  }
}

/** "1:05" for 65 seconds, "1:01:05" past an hour. */
export function formatSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
