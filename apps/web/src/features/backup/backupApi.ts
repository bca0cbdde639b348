import {
  type BackupSchedule,
  type BackupSummary,
  backupRestoreResultSchema,
  backupStatusSchema,
  backupSummarySchema,
  type ErrorBody,
  errorBodySchema,
} from '@centralino/contract';
import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import { z } from 'zod';
import { ApiError, apiRequest } from '../../api/client.ts';
import { readCredentials } from '../../api/credentials.ts';
import i18n from '../../i18n/index.ts';

/** Headers of a signed-in request made without apiRequest (the download and the upload). */
function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': i18n.language || 'en' };
  const credentials = readCredentials();
  if (credentials) {
    headers[AUTH_USER_HEADER] = credentials.user;
    headers[AUTH_KEY_HEADER] = credentials.secretkey;
  }
  return headers;
}

async function failure(res: Response): Promise<ApiError> {
  const json = await res.json().catch(() => undefined);
  const parsed = errorBodySchema.safeParse(json);
  const body: ErrorBody = parsed.success
    ? parsed.data
    : { code: 'internal', title: i18n.t('errors.internal.title'), detail: i18n.t('errors.internal.detail') };
  return new ApiError(res.status, body);
}

export const backupApi = {
  status: () => apiRequest('GET', '/api/backup/status', { schema: backupStatusSchema }),
  setSchedule: (body: BackupSchedule) =>
    apiRequest('PUT', '/api/backup/schedule', { body, schema: backupStatusSchema }),
  /**
   * Takes a backup and saves it: fetched with the sign-in headers (a plain link cannot send them) and handed to the
   * browser as a file.
   */
  download: async (): Promise<string> => {
    const res = await fetch('/api/backup', { headers: authHeaders() });
    if (!res.ok) throw await failure(res);
    const name =
      /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'centralino-backup.tar.gz';
    const url = URL.createObjectURL(await res.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return name;
  },
  /** Sends a backup to the server, which checks it and answers what it holds; nothing is restored yet. */
  upload: async (file: File): Promise<BackupSummary> => {
    const form = new FormData();
    form.append('file', file, file.name);
    const res = await fetch('/api/backup/uploads', {
      method: 'POST',
      headers: { Accept: 'application/json', ...authHeaders() },
      body: form,
    });
    if (!res.ok) throw await failure(res);
    return backupSummarySchema.parse(await res.json());
  },
  discard: (id: string) => apiRequest('DELETE', `/api/backup/uploads/${id}`, { schema: z.unknown() }),
  restore: (id: string) =>
    apiRequest('POST', `/api/backup/uploads/${id}/restore`, { schema: backupRestoreResultSchema }),
};
