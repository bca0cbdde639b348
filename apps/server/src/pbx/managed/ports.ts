import dgram from 'node:dgram';
import net from 'node:net';

export interface PortCheck {
  port: number;
  protocol: 'udp' | 'tcp';
  host: string;
  /** The setting that chooses it, named in the message. */
  setting: string;
}

function tcpFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code !== 'EADDRINUSE'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function udpFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.close();
      resolve(error.code !== 'EADDRINUSE');
    });
    socket.bind({ port, address: host, exclusive: true }, () => socket.close(() => resolve(true)));
  });
}

/**
 * The first of the ports Asterisk needs that another program holds. Asterisk itself starts regardless and only
 * logs that a transport could not bind, leaving phones unable to register with nothing on screen: so the
 * console asks first, and says which port and which setting.
 */
export async function firstTakenPort(checks: PortCheck[]): Promise<PortCheck | undefined> {
  for (const check of checks) {
    const free =
      check.protocol === 'tcp' ? await tcpFree(check.port, check.host) : await udpFree(check.port, check.host);
    if (!free) return check;
  }
  return undefined;
}
