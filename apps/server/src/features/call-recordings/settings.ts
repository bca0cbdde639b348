import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type CallRecordingSettings,
  callRecordingSettingsSchema,
  RECORDING_FREE_SPACE_WARNING_DEFAULT_MB,
  RECORDING_RETENTION_DEFAULT_DAYS,
} from '@centralino/contract';
import type { SettingsStore } from '../../db/settings-store.ts';
import { DISTRIBUTION_SOUNDS } from '../../pbx/managed/installation.ts';

/** Key of the call recordings' settings in the settings table. */
export const CALL_RECORDINGS_SETTING = 'call_recordings';

export const defaultCallRecordingSettings: CallRecordingSettings = {
  retention_days: RECORDING_RETENTION_DEFAULT_DAYS,
  free_space_warning_mb: RECORDING_FREE_SPACE_WARNING_DEFAULT_MB,
  notice: 'prompt',
  notice_recording: null,
};

/** The stored settings over the defaults; a stored value that no longer validates falls back to them. */
export async function readCallRecordingSettings(store: SettingsStore): Promise<CallRecordingSettings> {
  const stored = await store.get<Partial<CallRecordingSettings>>(CALL_RECORDINGS_SETTING);
  const parsed = callRecordingSettingsSchema.safeParse({ ...defaultCallRecordingSettings, ...stored });
  return parsed.success ? parsed.data : defaultCallRecordingSettings;
}

/**
 * The PBX's own prompt for the notice. Asterisk's core prompts (Debian's asterisk-core-sounds-en / -it) have no
 * "this call is recorded"; `conf-now-recording` ("now recording"-like, in every language the packages install) is
 * the nearest, so an uploaded recording is the better notice.
 */
export const NOTICE_PROMPT = 'conf-now-recording';

/** Whether the notice prompt is installed: in Asterisk's own sounds, or where Debian's prompt packages put it. */
export async function noticePromptInstalled(asteriskDataDir: string): Promise<boolean> {
  for (const dir of [path.join(asteriskDataDir, 'sounds', 'en'), path.join(DISTRIBUTION_SOUNDS, 'en')]) {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    if (names.some((n) => n.startsWith(`${NOTICE_PROMPT}.`))) return true;
  }
  return false;
}
