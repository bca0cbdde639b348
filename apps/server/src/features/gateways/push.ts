import type { GatewayModel } from '@centralino/contract';
import type { DialogueStep } from './dialogue.ts';
import type { SshLogin } from './ssh.ts';

/** Port of the console each vendor is reached on (telnet, SSH or the web page for Grandstream). */
export function controlPort(model: GatewayModel): number {
  if (model.manufacturer === 'Mediatrix') return 22;
  if (model.manufacturer === 'Grandstream') return 80;
  return 23;
}

/** Whether the console can load the file onto this vendor's devices itself (contract §3.18): all but Grandstream. */
export function canPush(device: { manufacturer: string }): boolean {
  return ['Patton', 'Sangoma', 'Mediatrix'].includes(device.manufacturer);
}

/** How a push reaches the device's console, and what it types there. */
export type PushPlan =
  | { transport: 'telnet'; steps: DialogueStep[] }
  | { transport: 'ssh'; login: SshLogin; steps: DialogueStep[] };

/** Factory login of the Mediatrix units' SSH console (contract §3.18). */
export const MEDIATRIX_LOGIN: SshLogin = { username: 'admin', password: 'administrator' };

/**
 * The Mediatrix DGW CLI settings of a push (contract §3.18), typed in this order as
 * `<parameter>="<value>"`, then MEDIATRIX_RESTART. The unit then fetches the script over TFTP
 * when it starts and runs it. The names are the DGW "Conf" service parameters (MX-CONF-MIB
 * spelling) written from memory and an SNMP MIB listing, not tried on a real unit: check them
 * here first if a Mediatrix refuses a line.
 */
export const MEDIATRIX_PUSH_SETTINGS: readonly {
  parameter: string;
  value: (target: { server: string; file: string }) => string;
}[] = [
  // The script for this unit and the one for all units: both are our file.
  { parameter: 'conf.scriptSpecificFileName', value: (t) => t.file },
  { parameter: 'conf.scriptGenericFileName', value: (t) => t.file },
  // Path on the server: the file is at the TFTP root.
  { parameter: 'conf.scriptsLocation', value: () => '' },
  { parameter: 'conf.scriptsTransferProtocol', value: () => 'tftp' },
  // host[:port]; the port only when our TFTP server is not on 69.
  { parameter: 'conf.scriptsTransferSrvHostname', value: (t) => t.server },
  // Run a script only when it changed, not again at every restart.
  { parameter: 'conf.scriptsAllowRepeatedExecution', value: () => 'disable' },
  { parameter: 'conf.scriptsTransferOnRestartEnable', value: () => 'enable' },
];
export const MEDIATRIX_RESTART = 'reboot';

/** Mediatrix CLI answers to a wrong line ('Error: ...', 'Invalid ...', 'Unknown parameter ...'). */
const MEDIATRIX_FAILED = /error|invalid|unknown|not found|denied|fail|cannot/i;

const LOGIN = /(login|username|user name)\s*:\s*$/i;
const PASSWORD = /password\s*:\s*$/i;
const PROMPT = /[>#]\s*$/;
const ENABLED = /#\s*$/;
/** Patton prints '% ...' for failed commands; transfers report 'failed' or 'error'. */
const FAILED = /(^|\n)\s*%|error|fail|denied|timed? ?out|not found/i;
/** 'Press 'yes' to ..., 'no' to ...' questions of a reload. */
const QUESTION = /'?yes'?[^\n]*'?no'?[^\n]*:\s*$/i;

function tftpUrl(pbx: string, tftpPort: number, file: string): string {
  return `tftp://${pbx}${tftpPort === 69 ? '' : `:${tftpPort}`}/${file}`;
}

/** Reload: decline saving the running configuration (it would overwrite the new file), then confirm. */
function reloadSteps(): DialogueStep[] {
  const answer = (printed: string) => (/store|save|running-config/i.test(printed) ? 'no' : 'yes');
  return [
    { expect: QUESTION, send: answer, timeoutMs: 15_000, endsDialogue: (printed) => answer(printed) === 'yes' },
    { expect: QUESTION, send: 'yes', timeoutMs: 15_000 },
  ];
}

/** The Mediatrix CLI lines of a push, from MEDIATRIX_PUSH_SETTINGS. */
export function mediatrixPushLines(pbx: string, tftpPort: number, file: string): string[] {
  const target = { server: tftpPort === 69 ? pbx : `${pbx}:${tftpPort}`, file };
  return [...MEDIATRIX_PUSH_SETTINGS.map((s) => `${s.parameter}="${s.value(target)}"`), MEDIATRIX_RESTART];
}

/**
 * How to make the device fetch its file from our TFTP server and restart with it (contract §3.18),
 * or undefined for vendors without a console push.
 */
export function pushPlan(model: GatewayModel, pbx: string, tftpPort: number, file: string): PushPlan | undefined {
  if (model.manufacturer === 'Mediatrix') {
    // Logged in by SSH: each line waits for the prompt, and the next checks what the previous printed.
    const steps = mediatrixPushLines(pbx, tftpPort, file).map(
      (line, i): DialogueStep =>
        i === 0 ? { expect: PROMPT, send: line } : { expect: PROMPT, failOn: MEDIATRIX_FAILED, send: line },
    );
    return { transport: 'ssh', login: MEDIATRIX_LOGIN, steps };
  }
  const steps = telnetDialogue(model, pbx, tftpPort, file);
  return steps && { transport: 'telnet', steps };
}

/** The telnet console dialogue of Patton and Sangoma devices. */
function telnetDialogue(model: GatewayModel, pbx: string, tftpPort: number, file: string): DialogueStep[] | undefined {
  const url = tftpUrl(pbx, tftpPort, file);
  if (model.manufacturer === 'Patton') {
    const login: DialogueStep[] = [
      { expect: LOGIN, send: '.' },
      { expect: PASSWORD, send: '' },
      { expect: PROMPT, send: 'enable' },
    ];
    if (model.family === 'patton-trinity') {
      return [
        ...login,
        { expect: ENABLED, send: `copy ${url} config:tmp-config` },
        // Copy to startup only once the download is complete and the device is back at its prompt.
        {
          expect: ENABLED,
          failOn: FAILED,
          send: 'copy config:tmp-config startup-config',
          timeoutMs: 60_000,
          delayMs: 1000,
        },
        { expect: ENABLED, failOn: FAILED, send: 'reload', timeoutMs: 30_000 },
        ...reloadSteps(),
      ];
    }
    return [
      ...login,
      { expect: ENABLED, send: `copy ${url} startup-config` },
      { expect: ENABLED, failOn: FAILED, send: 'reload', timeoutMs: 60_000 },
      ...reloadSteps(),
    ];
  }
  if (model.manufacturer === 'Sangoma') {
    return [
      { expect: LOGIN, send: 'admin' },
      { expect: PASSWORD, send: 'admin' },
      { expect: PROMPT, send: `GET ${url}` },
      { expect: PROMPT, failOn: FAILED, send: 'SAVE', timeoutMs: 60_000 },
      { expect: PROMPT, failOn: FAILED, send: 'REBOOT SYSTEM BLOCK', timeoutMs: 30_000 },
    ];
  }
  return undefined;
}
