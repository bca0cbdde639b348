import { type AmiClient, AmiError } from './ami/client.ts';

/**
 * SIP NOTIFY events that make a phone re-read its configuration or restart (contract asterisk §6.8,
 * api-core §13.1/§13.3). Phone firmware answers different event names, so reboot has a variant per
 * family of vendors.
 */
export type NotifyKind =
  | 'generic-reload'
  | 'generic-reboot'
  | 'snom-reboot'
  | 'polycom-reboot'
  | 'cisco-reboot'
  | 'aastra-reboot';

/**
 * Kinds defined in the rendered pjsip_notify.conf are sent by name with the CLI, as the reference does;
 * the others carry their Event header in the AMI action itself, so they work without a section in that
 * file (and before the next apply has written it).
 */
const CONFIGURED = new Set<NotifyKind>(['generic-reload', 'generic-reboot']);
const EVENT_OF: Record<NotifyKind, string> = {
  'generic-reload': 'check-sync;reboot=false',
  'generic-reboot': 'check-sync;reboot=true',
  // Snom firmware documents the reboot flag on check-sync; kept apart so the Snom form can diverge.
  'snom-reboot': 'check-sync;reboot=true',
  // Polycom/Digium and Aastra/Alcatel restart on a bare check-sync; SPA firmware needs its own event.
  'polycom-reboot': 'check-sync',
  'aastra-reboot': 'check-sync',
  'cisco-reboot': 'reboot_now',
};

/** Reboot variant by console vendor (contract api-core §13.3); vendors missing here cannot be rebooted. */
export const REBOOT_KIND_OF_VENDOR: Readonly<Record<string, NotifyKind>> = {
  Fanvil: 'generic-reboot',
  'Yealink/Dreamwave': 'generic-reboot',
  Gigaset: 'generic-reboot',
  Nethesis: 'generic-reboot',
  Akuvox: 'generic-reboot',
  Sangoma: 'generic-reboot',
  Panasonic: 'generic-reboot',
  Thomson: 'generic-reboot',
  Xorcom: 'generic-reboot',
  Snom: 'snom-reboot',
  Polycom: 'polycom-reboot',
  Digium: 'polycom-reboot',
  'Cisco/Linksys': 'cisco-reboot',
  Sipura: 'cisco-reboot',
  Aastra: 'aastra-reboot',
  'Alcatel Temporis': 'aastra-reboot',
};

export type NotifyResult =
  | { ok: true }
  /** not_connected: no AMI link; failed: Asterisk refused (unknown endpoint, no contact…). */
  | { ok: false; reason: 'not_connected' | 'failed'; message: string };

const EXTENSION = /^[0-9A-Za-z_-]{1,32}$/;

/**
 * Sends a NOTIFY of `kind` to the endpoint of `extension`. Never throws: the caller reports the
 * outcome per phone. `ami` undefined means no AMI connection is configured.
 */
export async function sendNotify(
  ami: AmiClient | undefined,
  extension: string,
  kind: NotifyKind,
): Promise<NotifyResult> {
  if (!EXTENSION.test(extension)) return { ok: false, reason: 'failed', message: `Invalid endpoint "${extension}"` };
  if (ami?.state !== 'connected') {
    return { ok: false, reason: 'not_connected', message: 'AMI not connected' };
  }
  try {
    if (CONFIGURED.has(kind)) {
      const output = await ami.command(`pjsip send notify ${kind} endpoint ${extension}`);
      // AmiClient.command already fails on "Unable…"; older versions end a failure with "failed.".
      const failure = output.find((line) => /failed\.\s*$/i.test(line));
      if (failure) return { ok: false, reason: 'failed', message: output.join('\n') };
    } else {
      await ami.action('PJSIPNotify', { Endpoint: extension, Variable: `Event=${EVENT_OF[kind]}` });
    }
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The link dropped between the state check and the answer.
    if (error instanceof AmiError && !error.response && ami.state !== 'connected') {
      return { ok: false, reason: 'not_connected', message };
    }
    return { ok: false, reason: 'failed', message };
  }
}

/** The Event header a kind sends, for logs and tests. */
export function notifyEvent(kind: NotifyKind): string {
  return EVENT_OF[kind];
}
