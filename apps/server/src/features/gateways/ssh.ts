import type { Algorithms, ClientChannel } from 'ssh2';
import { loadSsh2 } from '../../drivers.ts';
import { type DialogueStep, runDialogue } from './dialogue.ts';

export interface SshLogin {
  username: string;
  password: string;
}

/**
 * Gateways run old SSH servers: after ssh2's defaults, also offer the legacy algorithms they may
 * only know. Nothing here is secret-bearing beyond a factory login, and the host key is not
 * checked anyway (contract §3.18).
 */
const LEGACY_ALGORITHMS: Algorithms = {
  kex: {
    append: ['diffie-hellman-group14-sha1', 'diffie-hellman-group-exchange-sha1', 'diffie-hellman-group1-sha1'],
    prepend: [],
    remove: [],
  },
  serverHostKey: { append: ['ssh-dss'], prepend: [], remove: [] },
  cipher: { append: ['aes128-cbc', 'aes256-cbc', '3des-cbc'], prepend: [], remove: [] },
};

/**
 * Plays a console dialogue over an SSH interactive shell (with a terminal, as a person at `ssh`
 * would get). The host key is accepted whatever it is; the password is also given to
 * keyboard-interactive prompts. A refused login rejects with LoginRefusedError. The client is
 * closed on every path.
 */
export async function runSshDialogue(
  host: string,
  port: number,
  login: SshLogin,
  steps: DialogueStep[],
  options: { connectTimeoutMs?: number } = {},
): Promise<string> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const ssh2 = await loadSsh2();
  return runDialogue(
    steps,
    (events) => {
      const client = new ssh2.Client();
      let channel: ClientChannel | undefined;
      let closeTimer: NodeJS.Timeout | undefined;
      const text = (chunk: Buffer) => events.data(chunk.toString('latin1').replaceAll('\r', ''));

      client.on('ready', () => {
        client.shell({ term: 'vt100', cols: 1000, rows: 50 }, (error, stream) => {
          if (error) {
            events.error(`The gateway refused a console session: ${error.message}`);
            return;
          }
          channel = stream;
          stream.on('data', text);
          stream.stderr.on('data', text);
          stream.on('close', () => events.closed());
          events.ready();
        });
      });
      client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, answer) =>
        answer(prompts.map(() => login.password)),
      );
      client.on('error', (error: Error & { level?: string }) => {
        if (error.level === 'client-authentication') {
          events.error(`The gateway refused the login '${login.username}' with its password`, true);
        } else {
          events.error('Connection to the gateway failed');
        }
      });
      client.on('close', () => {
        clearTimeout(closeTimer);
        events.closed();
      });
      client.connect({
        host,
        port,
        username: login.username,
        password: login.password,
        tryKeyboard: true,
        readyTimeout: connectTimeoutMs,
        hostVerifier: () => true,
        keepaliveInterval: 0,
        algorithms: LEGACY_ALGORITHMS,
      });
      return {
        sendLine: (line) => channel?.write(`${line}\r`),
        end: () => channel?.end(),
        destroy: () => {
          // Say goodbye, then cut the socket if the device does not close it soon.
          client.end();
          closeTimer = setTimeout(() => client.destroy(), 500);
          closeTimer.unref();
        },
      };
    },
    // The handshake has its own timeout (readyTimeout); this one only backs it up.
    { connectTimeoutMs: connectTimeoutMs + 1000 },
  );
}
