import { randomUUID } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { AppError } from './errors.ts';
import { authRoutes } from './features/auth/routes.ts';
import { AuthService } from './features/auth/service.ts';
import { csvRoutes } from './features/csv/routes.ts';
import { CsvService } from './features/csv/service.ts';
import { ctiRoutes } from './features/cti/routes.ts';
import { CtiService } from './features/cti/service.ts';
import { directoryRoutes } from './features/directory/routes.ts';
import { DirectoryService } from './features/directory/service.ts';
import { healthRoutes } from './features/health/routes.ts';
import { settingsRoutes } from './features/settings/routes.ts';
import { LanguageService } from './features/settings/service.ts';
import { trunksRoutes } from './features/trunks/routes.ts';
import { TrunksService } from './features/trunks/service.ts';
import { usersRoutes } from './features/users/routes.ts';
import { UsersService } from './features/users/service.ts';
import { WizardRepository } from './features/wizard/repository.ts';
import { wizardRoutes } from './features/wizard/routes.ts';
import { JobRunner } from './jobs/runner.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSpa } from './plugins/spa.ts';
import { VERSION } from './version.ts';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  /** Pino options or false; tests pass false to keep output quiet. */
  logger?: boolean | object;
  /** Clock in milliseconds for session expiry; tests pass a controllable one. */
  now?: () => number;
  /** Called for every route as it is registered (tests use it to walk the route table). */
  onRoute?: (route: RouteOptions) => void;
}

export interface App {
  app: FastifyInstance;
  auth: AuthService;
  jobs: JobRunner;
}

export async function buildApp({ config, database, logger, now, onRoute }: AppDeps): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const auth = new AuthService(database.db, config.sessionIdleMinutes * 60_000, now);

  registerErrorHandler(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, 'rate_limited'),
  });
  await registerOpenApi(app, VERSION);
  registerAuth(app, auth);

  await app.register(healthRoutes(database, VERSION));
  await app.register(authRoutes(auth, config.loginRateLimit));
  await app.register(wizardRoutes(new WizardRepository(database.db), config.provisioningEngine));
  await app.register(settingsRoutes(new LanguageService(database.db)));

  const jobs = new JobRunner(database.db, app.log);
  const directory = new DirectoryService(database.db, jobs, config.localDomain);
  await app.register(directoryRoutes(directory));
  await app.register(usersRoutes(new UsersService(database.db, directory, config.extensionLimit)));
  await app.register(csvRoutes(new CsvService(database.db, jobs, directory)));
  const cti = new CtiService(database.db, {
    engine: config.provisioningEngine,
    // Without a licence limit the system counts as licensed (the original: an enterprise subscription).
    licenceActive: config.extensionLimit === undefined,
  });
  await app.register(ctiRoutes(cti));
  await app.register(trunksRoutes(new TrunksService(database.db)));
  // Jobs keep running in the background; let them finish before the database closes.
  app.addHook('onClose', () => jobs.idle());

  await registerSpa(app, config.webDistDir);
  return { app, auth, jobs };
}
