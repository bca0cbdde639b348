import { type CallReportQuery, callReportQuerySchema, callReportSchema } from '@centralino/contract';
import { apiRequest } from '../../../api/client.ts';
import { downloadFile, queryString } from '../../../api/download.ts';

export const reportsApi = {
  report: (query: CallReportQuery) =>
    apiRequest('GET', `/api/calls/reports?${queryString(query)}`, { schema: callReportSchema }),
  pdf: (month: string, lang: 'en' | 'it', serviceLevel: number) =>
    downloadFile(
      `/api/calls/reports/pdf?${queryString({ month, lang, serviceLevel })}`,
      lang === 'it' ? `report-chiamate-${month}.pdf` : `call-report-${month}.pdf`,
    ),
};

export type ReportFilters = { from?: string; to?: string; direction?: string; serviceLevel?: string };
const KEYS = ['from', 'to', 'direction', 'serviceLevel'] as const;

/** The report's filters a URL carries; a value the contract's schema refuses is left out. */
export function reportFiltersOfUrl(params: URLSearchParams): ReportFilters {
  const out: ReportFilters = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (!value) continue;
    const checked = callReportQuerySchema.safeParse({ [key]: value });
    if (checked.success) out[key] = value;
  }
  if (out.from && out.to && out.from > out.to) delete out.from;
  return out;
}

/** One CSV cell: quoted when it must be, and a leading formula sign neutralised (a spreadsheet would run it). */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Saves text or a data URL as a file. */
export function saveFile(filename: string, content: Blob | string): void {
  const url = typeof content === 'string' ? content : URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  if (typeof content !== 'string') setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function saveCsv(filename: string, head: string[], rows: (string | number)[][]): void {
  const text = [head, ...rows].map((r) => r.map(csvCell).join(',')).join('\n');
  saveFile(filename, new Blob([`${text}\n`], { type: 'text/csv;charset=utf-8' }));
}
