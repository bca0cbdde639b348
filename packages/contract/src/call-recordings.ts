import { z } from 'zod';
import { registerItalianMessages } from './text.ts';

/**
 * Call recordings (issue 41). Each user, inbound route and queue has a policy; along a call's way the first one that
 * says `always` or `never` decides (the inbound route, then the queue, then the called user; for a call a user
 * makes, that user, then the called user), and `on_demand` leaves it to the next: when nobody decides, `*1` starts
 * and stops a recording during the call.
 */
export const recordingPolicies = ['on_demand', 'always', 'never'] as const;
export type RecordingPolicy = (typeof recordingPolicies)[number];
export const recordingPolicySchema = z.enum(recordingPolicies, { error: 'Choose always, never or on demand' });

/** Days a recording is kept before the server deletes it; 0 keeps recordings for ever. */
export const RECORDING_RETENTION_DEFAULT_DAYS = 90;
/** Below this much free space on the recordings' disk, the dashboard warns (megabytes). */
export const RECORDING_FREE_SPACE_WARNING_DEFAULT_MB = 2048;

/** What a caller hears before a call recorded by an `always` policy: nothing, the PBX's own prompt, or an upload. */
export const recordingNotices = ['none', 'prompt', 'recording'] as const;

const RETENTION_MESSAGE = 'From 0 (keep for ever) to 3650 days';
const FREE_SPACE_MESSAGE = 'From 0 to 1000000 MB';
const NOTICE_MESSAGE = 'Choose the recording callers hear';
registerItalianMessages({
  'Choose always, never or on demand': 'Scegli sempre, mai o su richiesta',
  [RETENTION_MESSAGE]: 'Da 0 (conserva per sempre) a 3650 giorni',
  [FREE_SPACE_MESSAGE]: 'Da 0 a 1000000 MB',
  [NOTICE_MESSAGE]: 'Scegli la registrazione che sentono i chiamanti',
});

export const callRecordingSettingsSchema = z
  .object({
    retention_days: z
      .number({ error: RETENTION_MESSAGE })
      .int(RETENTION_MESSAGE)
      .min(0, RETENTION_MESSAGE)
      .max(3650, RETENTION_MESSAGE),
    free_space_warning_mb: z
      .number({ error: FREE_SPACE_MESSAGE })
      .int(FREE_SPACE_MESSAGE)
      .min(0, FREE_SPACE_MESSAGE)
      .max(1_000_000, FREE_SPACE_MESSAGE),
    notice: z.enum(recordingNotices),
    /** The uploaded recording (voice prompts) played when `notice` is `recording`. */
    notice_recording: z.number().int().min(1).nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.notice === 'recording' && value.notice_recording === null) {
      ctx.addIssue({ code: 'custom', path: ['notice_recording'], message: NOTICE_MESSAGE });
    }
  })
  .meta({ id: 'CallRecordingSettings' });
export type CallRecordingSettings = z.infer<typeof callRecordingSettingsSchema>;

export const callRecordingStatusSchema = z
  .object({
    /** Bytes and files under the recordings folder. */
    bytes: z.number(),
    files: z.number().int(),
    /** Free bytes on the disk that holds them; null when it cannot be read. */
    free_bytes: z.number().nullable(),
    /** Free space is below the setting's threshold. */
    low_space: z.boolean(),
    retention_days: z.number().int(),
    /** The PBX's own notice prompt is installed (else `prompt` plays nothing). */
    prompt_available: z.boolean(),
  })
  .meta({ id: 'CallRecordingStatus' });
export type CallRecordingStatus = z.infer<typeof callRecordingStatusSchema>;

/** A call's recording in the history: none was made, there is one to play, or the retention removed it. */
export const callRecordingStates = ['none', 'available', 'deleted'] as const;
