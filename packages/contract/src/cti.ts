import { z } from 'zod';
import { noControlChars } from './text.ts';
import type { ProvisioningEngine } from './wizard.ts';

/**
 * CTI permission model (contract api-admin §5.1): profiles switch macro permissions (feature areas)
 * and permissions (each inside one macro) on and off. The rules below are the only copy: the server
 * enforces them, the console shows them.
 */

export const ctiMacros = [
  { id: 1, name: 'settings', displayname: 'Settings', description: 'General and notifications settings' },
  { id: 2, name: 'phonebook', displayname: 'Phonebook', description: 'View Phonebook (read only)' },
  { id: 3, name: 'cdr', displayname: 'CDR', description: 'View own call history' },
  { id: 4, name: 'customer_card', displayname: 'Customer Card', description: 'Allow to view Customer Cards' },
  { id: 5, name: 'presence_panel', displayname: 'Presence Panel', description: 'Allow to view Presence Panel' },
  {
    id: 6,
    name: 'queue_agent',
    displayname: 'Use queue agent panel',
    description: 'View Queues and queues info of the user, login/logout from queues, enable or disable pause state',
  },
  { id: 7, name: 'streaming', displayname: 'Streaming', description: 'Allow to view Streaming Panel' },
  { id: 8, name: 'off_hour', displayname: 'Off Hour', description: 'Allow to change of his incoming call paths' },
  { id: 9, name: 'remote_sites', displayname: 'Remote Sites', description: 'Allow to view Remote Sites information' },
  {
    id: 10,
    name: 'qmanager',
    displayname: 'Queue Manager',
    description: 'Allow to view and manage queues in real time',
  },
  {
    id: 11,
    name: 'operator_panel',
    displayname: 'Operator Panel',
    description: 'Enables Operator Panel interface for operators',
  },
  {
    id: 12,
    name: 'nethvoice_cti',
    displayname: 'NethVoice CTI',
    description: 'Enables access to NethVoice CTI application',
  },
] as const;
export type CtiMacroName = (typeof ctiMacros)[number]['name'];
export const ctiMacroNames = ctiMacros.map((m) => m.name) as CtiMacroName[];

interface StaticPermission {
  id: number;
  name: string;
  displayname: string;
  description: string;
  macro: CtiMacroName;
}

export const ctiStaticPermissions: readonly StaticPermission[] = [
  { id: 2, name: 'dnd', displayname: 'DND', description: 'Configure do Not Disturb', macro: 'settings' },
  {
    id: 3,
    name: 'call_forward',
    displayname: 'Call Forward',
    description: 'Configure Call Forward',
    macro: 'settings',
  },
  {
    id: 4,
    name: 'recording',
    displayname: 'Recording',
    description: 'Record own conversations. View/listen/delete own recording',
    macro: 'settings',
  },
  { id: 5, name: 'conference', displayname: 'Conference', description: 'Make a conference call', macro: 'settings' },
  {
    id: 6,
    name: 'parkings',
    displayname: 'Parkings',
    description: 'View parkings state and pickup parked calls',
    macro: 'settings',
  },
  { id: 8, name: 'chat', displayname: 'Chat', description: 'Use chat service', macro: 'nethvoice_cti' },
  {
    id: 9,
    name: 'privacy',
    displayname: 'Privacy',
    description: 'Obfuscate called and caller numbers for other users',
    macro: 'nethvoice_cti',
  },
  {
    id: 10,
    name: 'phonebook_level_0',
    displayname: 'Phonebook read only',
    description: 'View phonebook contacts',
    macro: 'phonebook',
  },
  {
    id: 11,
    name: 'phonebook_level_1',
    displayname: 'Phonebook private contacts',
    description: 'Create, edit and delete owned private contacts',
    macro: 'phonebook',
  },
  {
    id: 12,
    name: 'ad_phonebook',
    displayname: 'Advanced Phonebook',
    description: 'Read and write all contacts',
    macro: 'phonebook',
  },
  { id: 13, name: 'ad_cdr', displayname: 'PBX CDR', description: 'View all users call history', macro: 'cdr' },
  {
    id: 14,
    name: 'phonebook_level_2',
    displayname: 'Phonebook public and shared contacts',
    description: 'Create, edit and delete public and shared contacts',
    macro: 'phonebook',
  },
  { id: 15, name: 'spy', displayname: 'Spy', description: 'Hear other extensions calls', macro: 'settings' },
  { id: 16, name: 'intrude', displayname: 'Intrude', description: 'Intrude in calls', macro: 'settings' },
  {
    id: 17,
    name: 'ad_recording',
    displayname: 'Advanced Recording',
    description: 'Record anyone call',
    macro: 'presence_panel',
  },
  { id: 18, name: 'pickup', displayname: 'Pickup', description: 'Pick-up any call', macro: 'settings' },
  { id: 19, name: 'transfer', displayname: 'Transfer', description: 'Transfer everyone call', macro: 'presence_panel' },
  {
    id: 20,
    name: 'ad_parking',
    displayname: 'Advanced Parking',
    description: 'Allow to park any call and to pickup them using any extension',
    macro: 'presence_panel',
  },
  { id: 21, name: 'hangup', displayname: 'Hangup', description: 'Hangup everyone call', macro: 'presence_panel' },
  { id: 22, name: 'trunks', displayname: 'PBX lines', description: 'View PBX lines', macro: 'presence_panel' },
  {
    id: 23,
    name: 'ad_queue_agent',
    displayname: 'Advanced queue agent panel',
    description: 'View more queue information',
    macro: 'queue_agent',
  },
  {
    id: 24,
    name: 'lost_queue_call',
    displayname: 'Lost Queue Calls',
    description: 'Allow to view Queue Recall panel',
    macro: 'queue_agent',
  },
  {
    id: 25,
    name: 'advanced_off_hour',
    displayname: 'Advanced Off Hour',
    description: "Allow to change user's incoming call path and generic inbound routes",
    macro: 'off_hour',
  },
  {
    id: 26,
    name: 'ad_phone',
    displayname: 'Advanced Phone',
    description: 'Use phone features (hangup, call, answer) on conversations not owned by the user',
    macro: 'presence_panel',
  },
  {
    id: 27,
    name: 'ad_off_hour',
    displayname: 'Admin Off Hour',
    description: 'Allow to change all incoming call paths',
    macro: 'off_hour',
  },
  {
    id: 1000,
    name: 'screen_sharing',
    displayname: 'Screen Sharing',
    description: 'Allow to share the desktop',
    macro: 'nethvoice_cti',
  },
  {
    id: 2000,
    name: 'phone_buttons',
    displayname: 'Phone buttons',
    description:
      'Allow the user to customize functions of physical phone buttons. These values correspond to the Line Keys settings shown in Devices -> Models and Configurations pages',
    macro: 'nethvoice_cti',
  },
  {
    id: 3000,
    name: 'video_conference',
    displayname: 'Video Conference',
    description: 'Allow to start a video conference',
    macro: 'nethvoice_cti',
  },
  {
    id: 3500,
    name: 'all_groups',
    displayname: 'All groups',
    description: 'Allow to see all groups and operators',
    macro: 'presence_panel',
  },
  {
    id: 4000,
    name: 'group_cdr',
    displayname: 'Group CDR',
    description: 'Allow to see call history of members of user groups',
    macro: 'cdr',
  },
  {
    id: 5000,
    name: 'satellite_stt',
    displayname: 'Transcription and Summary',
    description: 'Calls transcription and summary',
    macro: 'nethvoice_cti',
  },
];

/** Group permissions get ids above every static one: GROUP_PERMISSION_BASE + group id. */
export const GROUP_PERMISSION_BASE = 1_000_000;

/** grp_<name: letters and digits only, lower case> (contract §5.1). */
export function groupPermissionName(groupName: string): string {
  return `grp_${groupName.replace(/[^a-zA-Z0-9]/g, '').toLowerCase()}`;
}

export function groupPermission(group: { id: number; name: string }) {
  return {
    id: GROUP_PERMISSION_BASE + group.id,
    name: groupPermissionName(group.name),
    displayname: `Group: ${group.name}`,
    description: `Group: ${group.name}: of presence panel`,
    macro: 'presence_panel' as const,
  };
}

/** Default profiles of a new system (contract §5.1, ns8). */
export const defaultCtiProfiles: readonly {
  id: number;
  name: string;
  macros: CtiMacroName[];
  permissions: string[];
}[] = [
  {
    id: 1,
    name: 'Base',
    macros: ['settings', 'phonebook', 'cdr', 'customer_card', 'presence_panel', 'queue_agent', 'nethvoice_cti'],
    permissions: ['dnd', 'privacy', 'phonebook_level_0'],
  },
  {
    id: 2,
    name: 'Standard',
    macros: [
      'settings',
      'phonebook',
      'cdr',
      'customer_card',
      'presence_panel',
      'queue_agent',
      'off_hour',
      'nethvoice_cti',
    ],
    permissions: [
      'dnd',
      'call_forward',
      'recording',
      'conference',
      'chat',
      'privacy',
      'phonebook_level_0',
      'ad_queue_agent',
    ],
  },
  {
    id: 3,
    name: 'Advanced',
    macros: [
      'settings',
      'phonebook',
      'cdr',
      'customer_card',
      'presence_panel',
      'queue_agent',
      'streaming',
      'off_hour',
      'remote_sites',
      'nethvoice_cti',
    ],
    permissions: [
      'dnd',
      'call_forward',
      'recording',
      'conference',
      'parkings',
      'chat',
      'ad_phonebook',
      'phonebook_level_2',
      'ad_cdr',
      'trunks',
      'ad_queue_agent',
      'lost_queue_call',
      'advanced_off_hour',
    ],
  },
];

// ---- API shapes ----

export const ctiGroupNameSchema = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(65)
  .regex(/^[a-zA-Z0-9]+$/, 'Only letters and numbers allowed');
export const ctiGroupSchema = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'CtiGroup' });
export type CtiGroup = z.infer<typeof ctiGroupSchema>;
export const ctiGroupListSchema = z.array(ctiGroupSchema).meta({ id: 'CtiGroupList' });
export const ctiGroupCreateSchema = z.object({ name: ctiGroupNameSchema }).meta({ id: 'CtiGroupCreate' });

export const ctiPermissionSchema = z.object({
  /** null for a permission offered but not created yet (contract: queue manager queues). */
  id: z.number().int().nullable(),
  name: z.string().max(128),
  displayname: z.string().max(255),
  description: z.string().max(1024),
  value: z.boolean(),
});
export type CtiPermission = z.infer<typeof ctiPermissionSchema>;

export const ctiMacroSchema = z.object({
  value: z.boolean(),
  displayname: z.string().optional(),
  description: z.string().optional(),
  permissions: z.array(ctiPermissionSchema).optional(),
});
export type CtiMacro = z.infer<typeof ctiMacroSchema>;

export const ctiRoutePermissionSchema = z.object({
  route_id: z.number().int(),
  name: z.string().optional(),
  permission: z.boolean(),
});

export const ctiProfileNameSchema = z.string().trim().min(1, 'Name is required').max(64).check(noControlChars);

export const ctiProfileSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    macro_permissions: z.record(z.string(), ctiMacroSchema),
    outbound_routes_permissions: z.array(ctiRoutePermissionSchema).optional(),
  })
  .meta({ id: 'CtiProfile' });
export type CtiProfile = z.infer<typeof ctiProfileSchema>;
export const ctiProfileListSchema = z.array(ctiProfileSchema).meta({ id: 'CtiProfileList' });

/** In a posted profile only names and values matter; texts and ids may be left out. */
const ctiMacroWriteSchema = z.object({
  value: z.boolean(),
  displayname: z.string().optional(),
  description: z.string().optional(),
  permissions: z
    .array(
      ctiPermissionSchema
        .partial({ id: true, displayname: true, description: true })
        .extend({ id: z.number().int().nullish() }),
    )
    .max(10_000)
    .optional(),
});

/** An outbound route as GET /cti/permissions lists it. */
const ctiRouteRefSchema = z.object({ route_id: z.number().int(), name: z.string() });

/**
 * POST /cti/profiles and POST /cti/profiles/{id}: the whole profile (the console posts it after each switch).
 * A profile created without "Duplicate from" posts the blank template of GET /cti/permissions as its
 * macros, with the template's route list among them (contract §5.4): that list is accepted and ignored.
 */
export const ctiProfileWriteSchema = z
  .object({
    name: ctiProfileNameSchema,
    macro_permissions: z
      .object({ outbound_routes: z.array(ctiRouteRefSchema).max(10_000).optional() })
      .catchall(ctiMacroWriteSchema),
    outbound_routes_permissions: z.array(ctiRoutePermissionSchema).max(10_000).optional(),
  })
  .meta({ id: 'CtiProfileWrite' });
export type CtiProfileWrite = z.infer<typeof ctiProfileWriteSchema>;

/** GET /cti/permissions: the blank template a new profile starts from. */
export const ctiPermissionsTemplateSchema = z
  .object({ outbound_routes: z.array(ctiRouteRefSchema) })
  .catchall(z.union([ctiMacroSchema, z.array(ctiRouteRefSchema)]))
  .meta({ id: 'CtiPermissionsTemplate' });

export const ctiUserProfileSchema = z
  .object({ profile_id: z.number().int().nullable() })
  .meta({ id: 'CtiUserProfile' });
export const ctiUserGroupsSchema = z
  .object({ groups: z.array(z.number().int()).max(1000) })
  .meta({ id: 'CtiUserGroups' });
export const ctiGroupMembersSchema = z
  .array(z.object({ user_id: z.number().int(), name: z.string() }))
  .meta({ id: 'CtiGroupMembers' });

// ---- Rules ----

/** Macros that follow NethVoice CTI when it is switched on or off. */
export const CTI_CASCADE_MACROS: readonly CtiMacroName[] = [
  'phonebook',
  'cdr',
  'presence_panel',
  'customer_card',
  'queue_agent',
  'streaming',
  'off_hour',
  'qmanager',
  'operator_panel',
];
/** Permissions never shown in the profile editor. */
export const HIDDEN_PERMISSIONS: readonly string[] = ['chat', 'video_conference', 'trunks'];
export const HIDDEN_PERMISSION_PREFIXES: readonly string[] = ['in_queue_'];
/** Turning one of these on warns about privacy (call recording or listening). */
export const PRIVACY_PERMISSIONS: readonly string[] = ['recording', 'spy', 'intrude', 'ad_recording'];
/** The operator panel uses one queue at a time. */
export const EXCLUSIVE_MACROS: readonly CtiMacroName[] = ['operator_panel'];
export const LICENSED_MACROS: readonly CtiMacroName[] = ['qmanager'];
export const SAVE_MARK_MS = 5000;
export const LICENCE_REVERT_MS = 1000;

/** What the read-only rules need of a profile: posted profiles qualify as well as stored ones. */
export interface CtiProfileLike {
  macro_permissions: Record<string, { value: boolean; permissions?: { name: string; value: boolean }[] }>;
}

export interface CtiContext {
  engine: ProvisioningEngine;
  /** Queue manager needs an active licence; a missing licence record counts as inactive. */
  licenceActive: boolean;
}

/** Whether the profile editor shows a permission, given the rest of the profile. */
export function isPermissionVisible(name: string, profile: CtiProfileLike, ctx: CtiContext): boolean {
  if (HIDDEN_PERMISSIONS.includes(name)) return false;
  if (HIDDEN_PERMISSION_PREFIXES.some((p) => name.startsWith(p))) return false;
  if (name === 'phone_buttons' && ctx.engine !== 'tancredi') return false;
  if (name.startsWith('grp_') && permissionValue(profile, 'all_groups')) return false;
  return true;
}

export function permissionValue(profile: CtiProfileLike, name: string): boolean {
  for (const macro of Object.values(profile.macro_permissions)) {
    const found = macro.permissions?.find((p) => p.name === name);
    if (found) return found.value;
  }
  return false;
}

export type CtiChange =
  | { kind: 'macro'; macro: string; value: boolean }
  | { kind: 'permission'; macro: string; permission: string; value: boolean }
  | { kind: 'route'; routeId: number; value: boolean };

export type CtiChangeResult =
  | { ok: true; profile: CtiProfile; privacyWarning: boolean }
  | { ok: false; reason: 'licence' | 'unknown' };

function cloneProfile(profile: CtiProfile): CtiProfile {
  return {
    ...profile,
    macro_permissions: Object.fromEntries(
      Object.entries(profile.macro_permissions).map(([k, m]) => [
        k,
        { ...m, ...(m.permissions ? { permissions: m.permissions.map((p) => ({ ...p })) } : {}) },
      ]),
    ),
    ...(profile.outbound_routes_permissions
      ? { outbound_routes_permissions: profile.outbound_routes_permissions.map((r) => ({ ...r })) }
      : {}),
  };
}

/** One switch of the profile editor, with its consequences (cascade, exclusivity, licence, privacy). */
export function applyCtiChange(profile: CtiProfile, change: CtiChange, ctx: CtiContext): CtiChangeResult {
  const next = cloneProfile(profile);
  if (change.kind === 'route') {
    const route = next.outbound_routes_permissions?.find((r) => r.route_id === change.routeId);
    if (!route) return { ok: false, reason: 'unknown' };
    route.permission = change.value;
    return { ok: true, profile: next, privacyWarning: false };
  }
  const macro = next.macro_permissions[change.macro];
  if (!macro) return { ok: false, reason: 'unknown' };
  if (change.kind === 'macro') {
    if (change.value && LICENSED_MACROS.includes(change.macro as CtiMacroName) && !ctx.licenceActive) {
      return { ok: false, reason: 'licence' };
    }
    macro.value = change.value;
    if (change.macro === 'nethvoice_cti') {
      for (const name of CTI_CASCADE_MACROS) {
        const target = next.macro_permissions[name];
        // Without a licence the queue manager stays off even when the CTI is switched on.
        if (target && !(change.value && LICENSED_MACROS.includes(name) && !ctx.licenceActive))
          target.value = change.value;
      }
    }
    return { ok: true, profile: next, privacyWarning: false };
  }
  const permission = macro.permissions?.find((p) => p.name === change.permission);
  if (!permission) return { ok: false, reason: 'unknown' };
  permission.value = change.value;
  if (change.value && EXCLUSIVE_MACROS.includes(change.macro as CtiMacroName)) {
    for (const other of macro.permissions ?? []) if (other !== permission) other.value = false;
  }
  return { ok: true, profile: next, privacyWarning: change.value && PRIVACY_PERMISSIONS.includes(change.permission) };
}

/** Problems that make a posted profile unacceptable, as field → message (empty when fine). */
export function ctiProfileProblems(profile: CtiProfileLike, ctx: CtiContext): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const name of EXCLUSIVE_MACROS) {
    const on = profile.macro_permissions[name]?.permissions?.filter((p) => p.value) ?? [];
    if (on.length > 1) problems[`macro_permissions.${name}`] = 'Operator panel permissions are mutually exclusive';
  }
  for (const name of LICENSED_MACROS) {
    if (profile.macro_permissions[name]?.value && !ctx.licenceActive) {
      problems[`macro_permissions.${name}`] = 'The queue manager needs an active licence';
    }
  }
  return problems;
}

/** Phonebook access as the editor's level selector shows it (contract §5.2 console notes). */
export type PhonebookLevel = 0 | 1 | 2;
export function phonebookLevel(profile: CtiProfileLike): PhonebookLevel {
  if (permissionValue(profile, 'phonebook_level_2') || permissionValue(profile, 'ad_phonebook')) return 2;
  if (permissionValue(profile, 'phonebook_level_1')) return 1;
  return 0;
}
export function withPhonebookLevel(profile: CtiProfile, level: PhonebookLevel): CtiProfile {
  const next = cloneProfile(profile);
  const wanted: Record<string, boolean> = {
    phonebook_level_0: true,
    phonebook_level_1: level >= 1,
    phonebook_level_2: level >= 2,
    ad_phonebook: level >= 2,
  };
  for (const p of next.macro_permissions.phonebook?.permissions ?? []) {
    if (p.name in wanted) p.value = wanted[p.name] as boolean;
  }
  return next;
}

/** Groups whose grp_ permission is off in every profile (none when some profile sees all groups). */
export function groupsNotEnabled(profiles: readonly CtiProfileLike[], groups: readonly CtiGroup[]): CtiGroup[] {
  if (profiles.some((p) => permissionValue(p, 'all_groups'))) return [];
  return groups.filter((g) => !profiles.some((p) => permissionValue(p, groupPermissionName(g.name))));
}
