import { z } from 'zod';

/** How often the console asks for the PBX apply status (milliseconds). */
export const PBX_APPLY_POLL_MS = 3000;

export const pbxApplyStates = ['idle', 'pending', 'applying'] as const;

/** Kinds of console object an apply problem can be traced to ('configuration': the generated files themselves). */
export const pbxProblemKinds = [
  'user',
  'trunk',
  'gateway_trunk',
  'inbound_route',
  'outbound_route',
  'group',
  'profile',
  'configuration',
] as const;
export type PbxProblemKind = (typeof pbxProblemKinds)[number];

/** One reason the configuration was refused, traced back to the object of the console that produced it. */
export const pbxApplyProblemSchema = z
  .object({
    /** Generated file and line the check refused. */
    file: z.string(),
    line: z.number().int(),
    object: z.object({
      kind: z.enum(pbxProblemKinds),
      /** How the console identifies it: username, trunk name, DID / caller ID, route or group id; '' for configuration. */
      id: z.string(),
      /** What the administrator recognises: 'Alice Rossi (201)', the trunk or route name, the DID. */
      label: z.string(),
    }),
    /** The check's own words (English, technical). */
    message: z.string(),
  })
  .meta({ id: 'PbxApplyProblem' });
export type PbxApplyProblem = z.infer<typeof pbxApplyProblemSchema>;

export const pbxApplyRecordSchema = z
  .object({
    startedAt: z.number().int(),
    finishedAt: z.number().int(),
    durationMs: z.number().int(),
    ok: z.boolean(),
    /** Why the apply failed (validation issues one per line, or the write / reload error). */
    error: z.string().nullable(),
    /** The refused configuration's problems, each with the object at fault (empty when the failure was not a refusal). */
    problems: z.array(pbxApplyProblemSchema),
    /** Files written or removed by this apply. */
    changed: z.array(z.string()),
    /** Asterisk modules reloaded over AMI (empty when not connected). */
    reloaded: z.array(z.string()),
    /** A changed file needs an Asterisk restart (transports, modules, HTTP/TLS). */
    restartRequired: z.boolean(),
    /**
     * What the running Asterisk did not take up although the files were written and reloaded: a
     * transport or listener it did not create (e.g. TLS without a readable certificate), a restart
     * still waiting. Empty when all is in place or when no AMI connection is configured.
     */
    warnings: z.array(z.string()).default([]),
    /** Where a successful apply's time went, in milliseconds: reading the model, rendering, checking, writing. */
    phasesMs: z
      .object({
        load: z.number().int(),
        render: z.number().int(),
        check: z.number().int(),
        write: z.number().int(),
      })
      .optional(),
  })
  .meta({ id: 'PbxApplyRecord' });
export type PbxApplyRecord = z.infer<typeof pbxApplyRecordSchema>;

export const pbxApplyStatusSchema = z
  .object({
    /** applying = an apply runs; pending = changes wait for the next apply; idle = nothing to do. */
    state: z.enum(pbxApplyStates),
    /** Where the configuration is written. */
    directory: z.string(),
    /** The AMI connection: 'disabled' when none is configured. */
    engine: z.enum(['disabled', 'connecting', 'connected', 'failed']),
    last: pbxApplyRecordSchema.nullable(),
  })
  .meta({ id: 'PbxApplyStatus' });
export type PbxApplyStatus = z.infer<typeof pbxApplyStatusSchema>;

/** Indicator of the console header. */
export type PbxApplyIndicator = 'applying' | 'applied' | 'failed' | 'none';
export function pbxApplyIndicator(status: PbxApplyStatus | undefined): PbxApplyIndicator {
  if (!status) return 'none';
  if (status.state !== 'idle') return 'applying';
  if (!status.last) return 'none';
  return status.last.ok ? 'applied' : 'failed';
}

/** The last apply failed: its failure stands until an apply succeeds (whatever runs or waits meanwhile). */
export function pbxLastApplyFailed(status: PbxApplyStatus | undefined): boolean {
  return status?.last?.ok === false;
}

/** Console screen where an object at fault is fixed or removed; null when no screen holds it. */
export function pbxProblemScreen(kind: PbxProblemKind): string | null {
  switch (kind) {
    case 'user':
      return '/extensions';
    case 'trunk':
      return '/trunks/voip';
    case 'gateway_trunk':
      return '/trunks/physical';
    case 'inbound_route':
      return '/routes/inbound';
    case 'outbound_route':
      return '/routes/outbound';
    case 'group':
      return '/configurations/groups';
    case 'profile':
      return '/configurations/profiles';
    case 'configuration':
      return null;
  }
}

export const extensionStatuses = ['dnd', 'busy', 'online', 'onhold', 'offline', 'ringing', 'busy_ringing'] as const;

/** Live state of one SIP account (contract asterisk §6.7, astproxy Extension JSON). */
export const astExtensionSchema = z
  .object({
    ip: z.string(),
    cf: z.string(),
    mac: z.string(),
    cfb: z.string(),
    cfu: z.string(),
    dnd: z.boolean(),
    cfVm: z.string(),
    port: z.string(),
    name: z.string(),
    cfbVm: z.string(),
    cfuVm: z.string(),
    exten: z.string(),
    codecs: z.array(z.string()),
    status: z.enum(extensionStatuses),
    context: z.string(),
    chanType: z.literal('pjsip'),
    username: z.string(),
    useWebsocket: z.boolean(),
    sipuseragent: z.string(),
    conversations: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AstExtension' });
export type AstExtension = z.infer<typeof astExtensionSchema>;
export const astExtensionMapSchema = z.record(z.string(), astExtensionSchema);

export const trunkRegistrations = [
  'registered',
  'unregistered',
  'rejected',
  'failed',
  'sent',
  'noauth',
  'unmonitored',
] as const;

export const astTrunkSchema = z
  .object({
    ip: z.string(),
    port: z.string(),
    name: z.string(),
    exten: z.string(),
    codecs: z.array(z.string()),
    status: z.union([z.enum(extensionStatuses), z.literal('unmonitored')]),
    registration: z.enum(trunkRegistrations),
    chanType: z.literal('pjsip'),
    maxChannels: z.number().int(),
    sipuseragent: z.string(),
    conversations: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'AstTrunk' });
export type AstTrunk = z.infer<typeof astTrunkSchema>;
export const astTrunkMapSchema = z.record(z.string(), astTrunkSchema);

export const presenceStatuses = ['online', 'dnd', 'voicemail', 'cellphone', 'callforward'] as const;
export type PresenceStatus = (typeof presenceStatuses)[number];

const idItem = z.object({ id: z.string() });
export const ctiUserEndpointsSchema = z
  .object({
    name: z.string(),
    username: z.string(),
    mainPresence: z.string(),
    presence: z.string(),
    presenceOnBusy: z.string(),
    presenceOnUnavailable: z.string(),
    recallOnBusy: z.string(),
    endpoints: z.object({
      email: z.array(idItem),
      jabber: z.array(idItem),
      extension: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          // No secret: the list of every user's endpoints is no place for one (a device's own call shows it).
          username: z.string().optional(),
          description: z.string(),
        }),
      ),
      cellphone: z.array(idItem),
      voicemail: z.array(
        z.object({
          id: z.string(),
          owner: z.string(),
          email: z.string(),
          maxMessageCount: z.string(),
          maxMessageLength: z.string(),
        }),
      ),
      mainextension: z.array(z.object({ id: z.string(), description: z.string() })),
    }),
  })
  .meta({ id: 'CtiUserEndpoints' });
export type CtiUserEndpoints = z.infer<typeof ctiUserEndpointsSchema>;
export const ctiUserEndpointsMapSchema = z.record(z.string(), ctiUserEndpointsSchema);

export const presenceRequestSchema = z
  .object({
    status: z.enum(presenceStatuses),
    to: z
      .string()
      .regex(/^[0-9*#+]{1,32}$/, 'A phone number')
      .optional(),
    username: z.string().min(1).max(128).optional(),
  })
  .meta({ id: 'PresenceRequest' });
export type PresenceRequest = z.infer<typeof presenceRequestSchema>;

/** Who runs Asterisk: this console (managed), another host (external, over AMI), or nobody (files only). */
export const asteriskModes = ['managed', 'external', 'off'] as const;
/** A managed Asterisk's life: preparing (waiting for its first configuration), starting, running, ... */
export const managedPbxStates = ['preparing', 'starting', 'running', 'restarting', 'stopped', 'failed'] as const;
export type ManagedPbxState = (typeof managedPbxStates)[number];

export const pbxProblemCodes = [
  'binary_missing',
  'binary_broken',
  'build_failed',
  'not_built',
  'port_taken',
  'config_missing',
  'crashing',
  'start_failed',
] as const;

export const pbxSystemStatusSchema = z
  .object({
    mode: z.enum(asteriskModes),
    /** Managed mode: the supervised Asterisk's state; external: the AMI link ('running' when connected); off: stopped. */
    state: z.enum(managedPbxStates),
    /** Why it is failed: code and values for programs, detail (what to do) in the caller's Accept-Language. */
    problem: z
      .object({
        code: z.enum(pbxProblemCodes),
        values: z.record(z.string(), z.union([z.string(), z.number()])),
        detail: z.string(),
      })
      .nullable(),
    version: z.string().nullable(),
    pid: z.number().int().nullable(),
    uptimeSeconds: z.number().int().nullable(),
    /** Times Asterisk was restarted after it died, since the console started. */
    restarts: z.number().int(),
    /** What is missing beside Asterisk (prompts, music on hold), in the caller's Accept-Language. */
    warnings: z.array(z.string()),
    ami: z.enum(['disabled', 'connecting', 'connected', 'failed']),
    ports: z.object({
      sip: z.number().int(),
      tls: z.number().int(),
      wss: z.number().int(),
      rtpStart: z.number().int(),
      rtpEnd: z.number().int(),
    }),
  })
  .meta({ id: 'PbxSystemStatus' });
export type PbxSystemStatus = z.infer<typeof pbxSystemStatusSchema>;

export const pbxLogQuerySchema = z.object({
  search: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export const pbxLogLineSchema = z.object({
  time: z.string(),
  level: z.enum(['WARNING', 'ERROR']),
  text: z.string(),
});
export const pbxLogSchema = z
  .object({
    /** Warnings and errors Asterisk logged since it started, oldest first (the last `limit` that match). */
    lines: z.array(pbxLogLineSchema),
    /** Lines that matched before the cut to `limit`. */
    total: z.number().int(),
  })
  .meta({ id: 'PbxLog' });
export type PbxLog = z.infer<typeof pbxLogSchema>;
