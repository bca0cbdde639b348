import net from 'node:net';
import { type DialogueStep, runDialogue } from './dialogue.ts';

const IAC = 255;
const DONT = 254;
const DO = 253;
const WONT = 252;
const WILL = 251;
const SB = 250;
const SE = 240;

/**
 * A minimal telnet client for the gateways' consoles: it refuses every option the device offers
 * (line mode is all a scripted dialogue needs), strips negotiation from the text and plays the steps.
 * Resolves with the transcript when every step ran; the device may close the connection after the
 * last one (a reload).
 */
export function runTelnetDialogue(
  host: string,
  port: number,
  steps: DialogueStep[],
  options: { connectTimeoutMs?: number } = {},
): Promise<string> {
  return runDialogue(
    steps,
    (events) => {
      const socket = net.connect({ host, port });
      socket.on('connect', () => events.ready());
      socket.on('data', (chunk: Buffer) => events.data(stripNegotiation(chunk, (reply) => socket.write(reply))));
      socket.on('error', () => events.error('Connection to the gateway failed'));
      socket.on('close', () => events.closed());
      return {
        sendLine: (line) => socket.write(`${line}\r\n`),
        end: () => socket.end(),
        destroy: () => socket.destroy(),
      };
    },
    options,
  );
}

/** Removes telnet commands from a chunk, answering every offer with a refusal. */
function stripNegotiation(chunk: Buffer, reply: (bytes: Buffer) => void): string {
  const out: number[] = [];
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i] as number;
    if (byte !== IAC) {
      out.push(byte);
      continue;
    }
    const command = chunk[i + 1];
    if (command === IAC) {
      out.push(IAC);
      i += 1;
    } else if (command === DO || command === DONT || command === WILL || command === WONT) {
      const option = chunk[i + 2] ?? 0;
      if (command === DO) reply(Buffer.from([IAC, WONT, option]));
      if (command === WILL) reply(Buffer.from([IAC, DONT, option]));
      i += 2;
    } else if (command === SB) {
      const end = chunk.indexOf(Buffer.from([IAC, SE]), i + 2);
      i = end < 0 ? chunk.length : end + 1;
    } else {
      i += 1;
    }
  }
  return Buffer.from(out).toString('latin1').replaceAll('\r', '');
}

/** Whether something accepts TCP connections at host:port within the timeout. */
export function answersOnTcp(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  if (!host) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
