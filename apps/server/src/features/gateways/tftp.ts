import tftp, { type Server } from 'tftp';
import type { Log } from '../../log.ts';

/** Answers the file a device asks for, or undefined when it may not have it. */
export type TftpResolver = (file: string, remoteAddress: string) => Promise<Buffer | undefined>;

type TftpLogger = Pick<Log, 'warn' | 'info'>;

/**
 * Read-only TFTP server for gateway configuration files. Files are rendered from the database at
 * each request, so nothing with secrets is written to disk, and they go only to the addresses the
 * resolver accepts. The socket is opened on first need: a console that never pushes never binds it.
 */
export class TftpServer {
  private server: Server | undefined;
  private starting: Promise<boolean> | undefined;

  constructor(
    private readonly port: number,
    private readonly host: string,
    private readonly resolve: TftpResolver,
    private readonly log: TftpLogger,
  ) {}

  get enabled(): boolean {
    return this.port > 0;
  }

  /** Starts listening if it is not yet; answers whether the server is running. */
  ensureStarted(): Promise<boolean> {
    if (!this.enabled) return Promise.resolve(false);
    this.starting ??= new Promise<boolean>((done) => {
      const server = tftp.createServer(
        // The package reads files under root only with its default listener, which is not used.
        { host: this.host, port: this.port, root: '/', denyPUT: true },
        (req, res) => {
          req.on('error', (error) =>
            this.log.warn(
              { file: req.file, from: req.stats.remoteAddress, err: error.message },
              'TFTP transfer failed',
            ),
          );
          this.resolve(req.file, req.stats.remoteAddress).then(
            (body) => {
              if (!body) {
                this.log.warn({ file: req.file, from: req.stats.remoteAddress }, 'TFTP request refused');
                req.abort(tftp.ENOENT);
                return;
              }
              this.log.info({ file: req.file, from: req.stats.remoteAddress }, 'TFTP file sent');
              res.setSize(body.length);
              res.end(body);
            },
            () => req.abort(tftp.ENOENT),
          );
        },
      );
      let listening = false;
      server.once('listening', () => {
        listening = true;
        this.server = server;
        done(true);
      });
      server.on('error', (error: Error) => {
        if (listening) {
          // A malformed packet: the server keeps serving.
          this.log.warn({ err: error.message }, 'TFTP error');
          return;
        }
        this.log.warn({ port: this.port, err: error.message }, 'TFTP server could not start');
        // A later push tries again (the port may have been freed).
        this.starting = undefined;
        try {
          server.close();
        } catch {
          // the socket never opened
        }
        done(false);
      });
      server.listen();
    });
    return this.starting;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.starting = undefined;
    if (server) server.close();
  }
}
