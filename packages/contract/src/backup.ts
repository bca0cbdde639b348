import { z } from 'zod';
import { registerItalianMessages } from './text.ts';

/**
 * Backup and restore (issue 28, item 2). A backup is one tar.gz: `db/<table>.jsonl` per table (a header line with
 * the columns, then one JSON array per row; bytes as `{"$b64": "..."}`), `files/<area>/...` for the files kept under
 * DATA_DIR, and `manifest.json` last with the product version, the migration level and a SHA-256 of every entry.
 */

/** Largest backup accepted for a restore (streamed to disk, never held in memory). */
export const BACKUP_UPLOAD_MAX_BYTES = 4 * 1024 * 1024 * 1024;
/** Format of the archive layout; a reader refuses a format it does not know. */
export const BACKUP_FORMAT = 1;

const TIME_MESSAGE = 'Enter a time as HH:MM';
const KEEP_MESSAGE = 'From 1 to 365';
registerItalianMessages({
  [TIME_MESSAGE]: 'Inserisci un orario nel formato HH:MM',
  [KEEP_MESSAGE]: 'Da 1 a 365',
});

/** What an uploaded archive holds, shown before the restore is confirmed. */
export const backupSummarySchema = z
  .object({
    /** Names the uploaded archive on the server until it is restored or discarded. */
    id: z.string(),
    version: z.string(),
    migration: z.string(),
    createdAt: z.string(),
    /** The backup's migration level is older than this server's: the restore brings it up to date. */
    older: z.boolean(),
    tables: z.array(z.object({ name: z.string(), rows: z.number().int() })),
    files: z.array(z.object({ area: z.string(), count: z.number().int(), bytes: z.number().int() })),
  })
  .meta({ id: 'BackupSummary' });
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupRestoreResultSchema = z.object({
  restored: z.literal(true),
  tables: z.number().int(),
  rows: z.number().int(),
  files: z.number().int(),
});
export type BackupRestoreResult = z.infer<typeof backupRestoreResultSchema>;

/** Scheduled backups: once a day at `time` (server time) into BACKUP_DIR, keeping the newest `keep`. */
export const backupScheduleSchema = z.object({
  enabled: z.boolean(),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_MESSAGE),
  keep: z.number({ error: KEEP_MESSAGE }).int(KEEP_MESSAGE).min(1, KEEP_MESSAGE).max(365, KEEP_MESSAGE),
});
export type BackupSchedule = z.infer<typeof backupScheduleSchema>;

export const backupStatusSchema = z
  .object({
    schedule: backupScheduleSchema,
    /** BACKUP_DIR, or null when it is not configured (scheduled backups are then off). */
    folder: z.string().nullable(),
    /** Backups in the folder, newest first. */
    stored: z.array(z.object({ name: z.string(), bytes: z.number().int(), createdAt: z.string() })),
    lastRun: z
      .object({
        slot: z.string(),
        startedAt: z.string(),
        finishedAt: z.string().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'BackupStatus' });
export type BackupStatus = z.infer<typeof backupStatusSchema>;
