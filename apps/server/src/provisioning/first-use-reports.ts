import dgram from 'node:dgram';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The front web server's reports of phones' first steady-state fetches: nginx logs a fetch answered from
 * `provisioning-first` to syslog over UDP (sample `docs/nginx-centralino.conf`), one datagram per phone, whose
 * message is the path it served. Loopback only: a report retires a first-access token, so it must come from the
 * front server on this host. A lost datagram costs nothing but time: the file stays in `provisioning-first` and the
 * phone's next fetch is reported again.
 */
const RECEIVE_BUFFER = 4 * 1024 * 1024;

export async function listenForFirstUse(
  port: number,
  used: (tok2: string) => void,
  log: FastifyBaseLogger,
): Promise<{ close(): Promise<void> }> {
  // A storm sends thousands at once while the event loop is busy: Linux's default buffer (208 KiB) dropped more than
  // half of 2,000 in the bench. The kernel caps this at net.core.rmem_max.
  const socket = dgram.createSocket({ type: 'udp4', recvBufferSize: RECEIVE_BUFFER });
  socket.on('message', (message, from) => {
    if (from.address !== '127.0.0.1') return;
    // "<190>Nov 27 07:31:02 centralino: /provisioning-first/<tok2>/<file>" (RFC 3164, as nginx sends it).
    const token = /\/provisioning-first\/([0-9a-z.]{8,64})\//.exec(message.toString('latin1'))?.[1];
    if (token) used(token);
  });
  socket.on('error', (error) => log.warn({ err: error }, 'the front web server’s fetch reports stopped'));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return { close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
