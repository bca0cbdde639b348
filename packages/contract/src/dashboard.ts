import { z } from 'zod';
import { extensionStatuses, trunkRegistrations } from './pbx.ts';

/** The dashboard's poll (spec §4); pushed changes make it a fallback, not the way news arrives. */
export const DASHBOARD_REFRESH_MS = 15_000;

/** Whether the PBX engine's AMI connection is up, and since when it is up or down (ISO time, null if never). */
export const pbxConnectionSchema = z
  .object({
    connected: z.boolean(),
    since: z.string().nullable(),
    /** Asterisk refused the console's AMI credentials (the console asks again every 30 s). */
    loginRefused: z.boolean().optional(),
  })
  .meta({ id: 'PbxConnection' });
export type PbxConnection = z.infer<typeof pbxConnectionSchema>;

/** A status the PBX reported, or 'unknown' while it is not connected: never invented. */
export const dashboardExtensionStatuses = [...extensionStatuses, 'unknown'] as const;
export type DashboardExtensionStatus = (typeof dashboardExtensionStatuses)[number];

export const dashboardPresences = ['online', 'dnd', 'callforward', 'cellphone', 'voicemail', 'unknown'] as const;
export type DashboardPresence = (typeof dashboardPresences)[number];

export const dashboardUserSchema = z
  .object({
    username: z.string(),
    name: z.string(),
    presence: z.enum(dashboardPresences),
    /** Where calls go with a call forward (a number, or the mailbox for voicemail); empty otherwise. */
    forwardTo: z.string(),
    extensions: z.array(
      z.object({
        id: z.string(),
        /** main (a bare main number), physical, webrtc, mobile, nethlink, … */
        type: z.string(),
        status: z.enum(dashboardExtensionStatuses),
        /** Web phones and desktop clients: drawn as headsets. */
        headset: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'DashboardUser' });
export type DashboardUser = z.infer<typeof dashboardUserSchema>;

export const dashboardUsersPageSchema = z.object({
  pbx: pbxConnectionSchema,
  total: z.number().int(),
  users: z.array(dashboardUserSchema),
});
export type DashboardUsersPage = z.infer<typeof dashboardUsersPageSchema>;

export const dashboardTrunkSchema = z
  .object({
    name: z.string(),
    kind: z.enum(['voip', 'gateway']),
    chanType: z.string(),
    ip: z.string(),
    port: z.string(),
    status: z.union([z.enum(extensionStatuses), z.literal('unmonitored'), z.literal('unknown')]),
    registration: z.union([z.enum(trunkRegistrations), z.literal('unknown')]),
    codecs: z.array(z.string()),
  })
  .meta({ id: 'DashboardTrunk' });
export type DashboardTrunk = z.infer<typeof dashboardTrunkSchema>;

export const dashboardTrunksPageSchema = z.object({
  pbx: pbxConnectionSchema,
  total: z.number().int(),
  trunks: z.array(dashboardTrunkSchema),
});
export type DashboardTrunksPage = z.infer<typeof dashboardTrunksPageSchema>;

export const dashboardPageQuerySchema = z.object({
  search: z.string().max(128).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

/**
 * What GET /api/dashboard/events pushes (server-sent events): 'users' or 'trunks' when what the dashboard
 * shows of them changed, 'pbx' with a PbxConnection when the connection went up or down.
 */
export const dashboardEventNames = ['users', 'trunks', 'pbx'] as const;
