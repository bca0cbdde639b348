import { z } from 'zod';

/** Values of the migration status the server stores (contract §11.1); no value stored reads as `ready`. */
export const MIGRATION_STATUSES = [
  'ready',
  'profiles',
  'users',
  'vtrunk',
  'gateptrunks',
  'iax',
  'outroutes',
  'groups',
  'queues',
  'ivr',
  'cqr',
  'recordings',
  'announcements',
  'daynight',
  'tgroupstcond',
  'iroutes',
  'postmig',
  'cdr',
  'done',
] as const;
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number];
export const migrationStatusSchema = z.enum(MIGRATION_STATUSES).meta({ id: 'MigrationStatus' });
export const migrationStatusBodySchema = z
  .object({ status: migrationStatusSchema })
  .meta({ id: 'MigrationStatusBody' });

/** Console step keys in order, with the screen each belongs to (`vtrunks` is the console's name of `vtrunk`). */
export const MIGRATION_STEPS = [
  ['profiles', '/migration/users'],
  ['users', '/migration/users'],
  ['vtrunks', '/migration/config'],
  ['gateptrunks', '/migration/config'],
  ['iax', '/migration/config'],
  ['outroutes', '/migration/config'],
  ['groups', '/migration/config'],
  ['queues', '/migration/config'],
  ['ivr', '/migration/config'],
  ['cqr', '/migration/config'],
  ['recordings', '/migration/config'],
  ['announcements', '/migration/config'],
  ['daynight', '/migration/config'],
  ['tgroupstcond', '/migration/config'],
  ['iroutes', '/migration/config'],
  ['postmig', '/migration/config'],
  ['cdr', '/migration/cdr'],
] as const;

/** Where a signed-in administrator goes while a migration is in progress (contract §11.1). */
export function migrationPath(status: string): string {
  if (status === 'ready') return '/migration';
  if (status === 'users') return '/migration/users';
  if (status === 'cdr') return '/migration/report';
  const key = status === 'vtrunk' ? 'vtrunks' : status;
  const at = MIGRATION_STEPS.findIndex(([k]) => k === key);
  if (at < 0) return '/migration';
  return MIGRATION_STEPS[at + 1]?.[1] ?? '/migration/report';
}

/** Answer of every migration step. `status` null: nothing to migrate (the old system had none). */
export const migrationStepResultSchema = z
  .object({
    status: z.boolean().nullable(),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    infos: z.array(z.string()),
  })
  .meta({ id: 'MigrationStepResult' });
export type MigrationStepResult = z.infer<typeof migrationStepResultSchema>;

/** One extension of the older system with its CTI account (GET /migration/oldusers). */
export const oldUserSchema = z
  .object({
    extension: z.string(),
    username: z.string(),
    name: z.string(),
    cellphone: z.string(),
    email: z.string(),
    voicemail: z.string(),
    outboundcid: z.string(),
    profile_id: z.string(),
    /**
     * Where `username` comes from: the old CTI account, or — an extension that had none — derived from the old name
     * or, failing that, the extension number (the users step says so; the import reports it as an info).
     */
    username_from: z.enum(['cti', 'name', 'extension']),
  })
  .meta({ id: 'OldUser' });
export type OldUser = z.infer<typeof oldUserSchema>;
export const oldUserListSchema = z.array(oldUserSchema).meta({ id: 'OldUserList' });

/** A row of POST /migration/importusers: the old user as edited on the users step. */
export const importOldUserSchema = z.object({
  extension: z.string().regex(/^\d{2,10}$/, 'Extension must be digits'),
  username: z
    .string()
    .trim()
    .min(1, 'Username is required')
    .max(64)
    .regex(/^[a-z0-9][a-z0-9._-]*$/i, 'Username may hold letters, digits, dot, dash and underscore'),
  name: z.string().trim().min(1, 'Name is required').max(128),
  cellphone: z.string().max(40).default(''),
  voicemail: z.string().max(16).default('default'),
  profile_id: z.string().max(16).default(''),
});
export const importOldUsersSchema = z.array(importOldUserSchema).min(1).max(10_000).meta({ id: 'ImportOldUsers' });
export type ImportOldUser = z.input<typeof importOldUserSchema>;

export const cdrRowCountSchema = migrationStepResultSchema
  .extend({ count: z.string() })
  .meta({ id: 'MigrationCdrCount' });
export const cdrProgressSchema = z
  .object({
    status: z.boolean().optional(),
    progress: z.number(),
    copied: z.number(),
    total: z.number(),
    errors: z.string().optional(),
  })
  .meta({ id: 'MigrationCdrProgress' });
export type CdrProgress = z.infer<typeof cdrProgressSchema>;

/**
 * GET /migration/report: per server step name, the errors and warnings it stored. Infos are stored only for the PBX
 * configuration check (`pbxConfigurationCheck`: the validator's verdict, valid or not, is part of the report).
 */
export const migrationReportSchema = z
  .record(
    z.string(),
    z.object({
      errors: z.array(z.string()).optional(),
      warnings: z.array(z.string()).optional(),
      infos: z.array(z.string()).optional(),
    }),
  )
  .meta({ id: 'MigrationReport' });
export type MigrationReport = z.infer<typeof migrationReportSchema>;

/** Report sections of the console, each with the server step names it shows (contract §11.3). */
export const MIGRATION_REPORT_SECTIONS: [string, string[]][] = [
  ['profiles', ['cloneOldCTIProfile']],
  ['users', ['csvimport']],
  ['vtrunks', ['copyOldTrunks']],
  ['gateptrunks', ['getOldGateways']],
  ['iax', ['migrateIAX']],
  ['outroutes', ['copyOldOutboundRoutes', 'migrateRoutesTrunksAssignements']],
  ['groups', ['migrateGroups']],
  ['queues', ['migrateQueues']],
  ['ivr', ['migrateIVRs']],
  ['cqr', ['migrateCQRs']],
  ['recordings', ['migrateRecordings']],
  ['announcements', ['migrateAnnouncements']],
  ['daynight', ['daynight']],
  ['tgroupstcond', ['migrateTimegroups', 'migrateTimeconditions']],
  ['iroutes', ['migrateInboundRoutes']],
  ['postmig', ['postMigration']],
  ['pbxcheck', ['pbxConfigurationCheck']],
  ['cdr', ['cdrmigration']],
];

/** What a dry run counts: objects that would be created (users: also those refused). */
export const MIGRATION_DRY_RUN_COUNTS = [
  'users',
  'usersRefused',
  'trunks',
  'gateways',
  'outboundRoutes',
  'groups',
  'queues',
  'ivrs',
  'cqrs',
  'recordings',
  'announcements',
  'dayNight',
  'timeGroups',
  'timeConditions',
  'inboundRoutes',
  'phonebookContacts',
  'cardTemplates',
] as const;
export type MigrationDryRunCount = (typeof MIGRATION_DRY_RUN_COUNTS)[number];

/**
 * POST /migration/dryrun (Centralino's own): every step run against the old system and rolled back. `report` is the
 * report the migration would store (per server step name, with the infos too); `counts` what it would create.
 */
export const migrationDryRunSchema = z
  .object({
    report: z.record(
      z.string(),
      z.object({ errors: z.array(z.string()), warnings: z.array(z.string()), infos: z.array(z.string()) }),
    ),
    counts: z.record(z.enum(MIGRATION_DRY_RUN_COUNTS), z.number().int()),
  })
  .meta({ id: 'MigrationDryRun' });
export type MigrationDryRun = z.infer<typeof migrationDryRunSchema>;
