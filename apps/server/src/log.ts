/**
 * What the console's parts need of a logger: Fastify's (pino) satisfies it, and a test passes a plain object.
 * One type, so a part that logs is given the application's logger without naming Fastify.
 */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
