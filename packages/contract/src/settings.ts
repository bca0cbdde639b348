import { z } from 'zod';
import { pbxProblemCodes, pbxSystemStatusSchema } from './pbx.ts';

/** Languages of the PBX itself (prompts and tone zone), not of this console. */
export const pbxLanguages = ['it', 'en', 'fr', 'de', 'es'] as const;
export type PbxLanguage = (typeof pbxLanguages)[number];
export const pbxLanguageSchema = z.enum(pbxLanguages);

export const languagesResponseSchema = z
  .record(z.string(), z.object({ default: z.boolean() }))
  .meta({ id: 'Languages' });
export type LanguagesResponse = z.infer<typeof languagesResponseSchema>;

export const languageRequestSchema = z.object({ lang: pbxLanguageSchema }).meta({ id: 'LanguageRequest' });
export type LanguageRequest = z.infer<typeof languageRequestSchema>;

/** Tone zone follows the language; English uses the US tones. */
export function toneZoneFor(lang: PbxLanguage): string {
  return lang === 'en' ? 'us' : lang;
}

export const healthResponseSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    database: z.enum(['sqlite', 'postgres']),
    /** The phone system: who runs it, its state and why it is failed (no log lines: this route is public). */
    pbx: pbxSystemStatusSchema
      .pick({ mode: true, state: true, version: true, uptimeSeconds: true, ami: true })
      .extend({ problem: z.enum(pbxProblemCodes).nullable() })
      .optional(),
  })
  .meta({ id: 'Health' });
