/** The parts of the `tftp` package (gagle/node-tftp, no bundled types) that the console uses. */
declare module 'tftp' {
  import type { EventEmitter } from 'node:events';
  import type { Readable, Writable } from 'node:stream';

  interface Options {
    host?: string;
    port?: number;
    blockSize?: number;
    windowSize?: number;
    retries?: number;
    timeout?: number;
  }
  interface ServerOptions extends Options {
    root?: string;
    denyGET?: boolean;
    denyPUT?: boolean;
  }
  interface ServerRequest extends Readable {
    file: string;
    method: 'GET' | 'PUT';
    stats: { remoteAddress: string; remotePort: number };
    abort(error?: string): void;
  }
  interface ServerResponse extends Writable {
    setSize(size: number): void;
  }
  interface Server extends EventEmitter {
    listen(): void;
    close(): void;
    _socket: import('node:dgram').Socket;
  }
  interface Client {
    createGetStream(file: string): Readable;
  }
  const tftp: {
    createServer(options: ServerOptions, listener: (req: ServerRequest, res: ServerResponse) => void): Server;
    createClient(options: Options): Client;
    ENOENT: string;
    EACCESS: string;
  };
  export default tftp;
  export type { Server, ServerRequest, ServerResponse };
}
