import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { BULK_PATH_MAX, pbxLastApplyFailed, vendorOfMac } from '@centralino/contract';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { ChangeBus } from './db/change-bus.ts';
import type { DatabaseHandle } from './db/database.ts';
import { AppError } from './errors.ts';
import { accountsRoutes } from './features/accounts/routes.ts';
import { AccountsService } from './features/accounts/service.ts';
import { registerAuditHook } from './features/audit/hook.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { AuditService } from './features/audit/service.ts';
import { authRoutes } from './features/auth/routes.ts';
import { AuthService } from './features/auth/service.ts';
import { cleanUpInterruptedWork } from './features/backup/leftovers.ts';
import { backupRoutes } from './features/backup/routes.ts';
import { BackupService } from './features/backup/service.ts';
import { blockingRoutes } from './features/blocking/routes.ts';
import { BlockingService } from './features/blocking/service.ts';
import { bulkRoutes } from './features/bulk/routes.ts';
import { BulkService } from './features/bulk/service.ts';
import { bulkPhonesRoutes } from './features/bulk-phones/routes.ts';
import { BulkPhonesService } from './features/bulk-phones/service.ts';
import { callRecordingsRoutes } from './features/call-recordings/routes.ts';
import { CallRecordingsService, RecordingRetention } from './features/call-recordings/service.ts';
import { noticePromptInstalled } from './features/call-recordings/settings.ts';
import { CallIndexer } from './features/calls/indexer.ts';
import { callReportsRoutes } from './features/calls/reports/routes.ts';
import { ReportsService } from './features/calls/reports/service.ts';
import { callsRoutes } from './features/calls/routes.ts';
import { CallsService } from './features/calls/service.ts';
import { cardSourcesRoutes } from './features/card-sources/routes.ts';
import { CardSourcesService } from './features/card-sources/service.ts';
import { cloudSpeechRoutes } from './features/cloud-speech/routes.ts';
import { CloudSpeechService, type GoogleSpeechOptions } from './features/cloud-speech/service.ts';
import { ConferenceLive } from './features/conferences/live.ts';
import { conferenceRoutes } from './features/conferences/routes.ts';
import { ConferencesService } from './features/conferences/service.ts';
import { csvRoutes } from './features/csv/routes.ts';
import { CsvService } from './features/csv/service.ts';
import { ctiRoutes } from './features/cti/routes.ts';
import { CtiService } from './features/cti/service.ts';
import { customerCardsRoutes } from './features/custcards/routes.ts';
import { CardQueryRunner } from './features/custcards/run-query.ts';
import { CustomerCardsService } from './features/custcards/service.ts';
import { dashboardRoutes } from './features/dashboard/routes.ts';
import { DashboardService } from './features/dashboard/service.ts';
import { devicesRoutes } from './features/devices/routes.ts';
import { DevicesService } from './features/devices/service.ts';
import { directoryRoutes } from './features/directory/routes.ts';
import { DirectoryService } from './features/directory/service.ts';
import { CqrService } from './features/flows/cqr.ts';
import { cqrRoutes } from './features/flows/cqr-routes.ts';
import { phoneRecordingRoutes } from './features/flows/phone-recording-routes.ts';
import { queueRoutes } from './features/flows/queue-routes.ts';
import { QueuesService } from './features/flows/queues.ts';
import { ringGroupRoutes } from './features/flows/ring-group-routes.ts';
import { RingGroupsService } from './features/flows/ring-groups.ts';
import { flowsRoutes } from './features/flows/routes.ts';
import { FlowsService, RecordingsService } from './features/flows/service.ts';
import { TimeConditionsService } from './features/flows/time-conditions.ts';
import { timeRoutes } from './features/flows/time-routes.ts';
import { gatewaysRoutes } from './features/gateways/routes.ts';
import { GatewaysService } from './features/gateways/service.ts';
import { healthRoutes } from './features/health/routes.ts';
import { legacyReadsRoutes } from './features/legacy-reads/routes.ts';
import { migrationRoutes } from './features/migration/routes.ts';
import { MigrationService } from './features/migration/service.ts';
import { musicRoutes } from './features/music/routes.ts';
import { MusicService } from './features/music/service.ts';
import { paramUrlsRoutes } from './features/paramurls/routes.ts';
import { ParamUrlsService } from './features/paramurls/service.ts';
import { ParkingLive } from './features/parking/live.ts';
import { parkingRoutes } from './features/parking/routes.ts';
import { ParkingService } from './features/parking/service.ts';
import { RebootService } from './features/phone-actions/reboot.ts';
import { phoneActionsRoutes } from './features/phone-actions/routes.ts';
import { ScanService } from './features/phone-actions/scan.ts';
import { phoneConfigRoutes } from './features/phone-config/routes.ts';
import { PhoneConfigService } from './features/phone-config/service.ts';
import { phonebookRoutes } from './features/phonebook/routes.ts';
import { PhonebookService } from './features/phonebook/service.ts';
import { phonebookLdapRoutes } from './features/phonebook-ldap/routes.ts';
import { PhonebookLdapService } from './features/phonebook-ldap/service.ts';
import { Slapd } from './features/phonebook-ldap/slapd.ts';
import { InboundRoutesService } from './features/routes/inbound.ts';
import { OutboundRoutesService } from './features/routes/outbound.ts';
import { routesRoutes } from './features/routes/routes.ts';
import { settingsRoutes } from './features/settings/routes.ts';
import { LanguageService } from './features/settings/service.ts';
import { streamingRoutes } from './features/streaming/routes.ts';
import { StreamingService } from './features/streaming/service.ts';
import { trunksRoutes } from './features/trunks/routes.ts';
import { TrunksService } from './features/trunks/service.ts';
import { FollowMeService } from './features/users/follow-me.ts';
import { followMeRoutes } from './features/users/follow-me-routes.ts';
import { usersRoutes } from './features/users/routes.ts';
import { UsersService } from './features/users/service.ts';
import { WizardRepository } from './features/wizard/repository.ts';
import { wizardRoutes } from './features/wizard/routes.ts';
import { JobRunner } from './jobs/runner.ts';
import { markPbxDirtyAfterWrites } from './pbx/dirty-hook.ts';
import { type ManagedPbx, PbxEngine } from './pbx/engine.ts';
import { networkRoutes } from './pbx/network-routes.ts';
import { phoneRecordingDir } from './pbx/phone-recording.ts';
import { pbxRoutes } from './pbx/routes.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerCompression } from './plugins/compress.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { tlsFiles } from './plugins/https-listener.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { defaultServerHost } from './provisioning/address.ts';
import { registerProvisioning } from './provisioning/index.ts';
import type { ProvisioningService } from './provisioning/service.ts';
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
  /** Where Google's token and Speech-to-Text endpoints are (tests point them at a loopback double). */
  googleSpeech?: GoogleSpeechOptions;
  /** Managed mode (main.ts): the Asterisk this process runs. Tests leave it out unless they run one. */
  managedPbx?: ManagedPbx;
}

export interface App {
  app: FastifyInstance;
  auth: AuthService;
  jobs: JobRunner;
  provisioning: ProvisioningService;
}

export async function buildApp({
  config,
  database,
  logger,
  now,
  onRoute,
  googleSpeech,
  managedPbx,
}: AppDeps): Promise<App> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // GET /api/bulk/{exts} carries up to BULK_PATH_MAX main extensions in one parameter (the original's form).
    routerOptions: { maxParamLength: BULK_PATH_MAX * 7 + 16 },
    // Cast: a union here makes TypeScript pick the HTTP/2 overload of Fastify().
    trustProxy: config.trustProxy as boolean,
    // Our own server, so that phones' requests answered from memory skip Fastify (provisioning phoneFront);
    // the timeouts are Fastify's defaults, which it sets only on servers it makes itself.
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (!app.phoneFront(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = 72_000;
      server.requestTimeout = 0;
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();
  if (onRoute) app.addHook('onRoute', onRoute);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app);
  registerCompression(app);

  // Copies of the database and keys that a backup or restore killed midway left behind, before anything reads them.
  await cleanUpInterruptedWork({
    dataDir: config.dataDir,
    backupDir: config.backupDir,
    singleProcess: database.kind === 'sqlite',
    now,
    log: app.log,
  });

  const auth = new AuthService(database.db, config.sessionIdleMinutes * 60_000, now);

  registerErrorHandler(app);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, 'rate_limited'),
  });
  await registerOpenApi(app, VERSION);
  registerAuth(app, auth);
  // Before any route: it wraps the handlers of the writes it audits as they are registered.
  registerAuditHook(app, database.db, now ?? Date.now);
  const audit = new AuditService(database.db, now);
  app.addHook('onReady', async () => audit.start((error) => app.log.error({ err: error }, 'audit purge failed')));
  app.addHook('onClose', async () => audit.stop());

  const pbx = new PbxEngine(database.db, config, VERSION, app.log, managedPbx);
  await app.register(healthRoutes(database, VERSION, () => pbx.system()));
  await app.register(authRoutes(auth, config.loginRateLimit, now, audit));
  await app.register(auditRoutes(audit));
  await app.register(accountsRoutes(new AccountsService(database.db, now)));
  await app.register(
    wizardRoutes(new WizardRepository(database.db), config.provisioningEngine, async () =>
      pbxLastApplyFailed(await pbx.applier.status()),
    ),
  );
  await app.register(settingsRoutes(new LanguageService(database.db)));

  const jobs = new JobRunner(database.db, app.log);
  // Other server processes on the same PostgreSQL hear of this one's changes at once (LISTEN/NOTIFY).
  const changes = new ChangeBus(database.db, config.databaseUrl, app.log);
  app.addHook('onReady', async () => {
    await changes.start();
  });
  app.addHook('onClose', async () => changes.close());
  markPbxDirtyAfterWrites(app, pbx.applier.markDirty);
  // A configuration change (here or in another process) is news for every open dashboard.
  pbx.applier.onDirtyCommitted(() => {
    pbx.live.state.configurationChanged();
    changes.publish('configuration');
  });
  changes.on('configuration', () => pbx.live.state.configurationChanged());
  await app.register(pbxRoutes(pbx));
  await app.register(dashboardRoutes(new DashboardService(database.db, pbx.live), pbx.live.state));
  await app.register(networkRoutes(database.db));
  // The provisioning engine is registered later; phones hear about their accounts through it once it exists.
  let provisioningRef: ProvisioningService | undefined;
  const devicesService = new DevicesService(
    database.db,
    undefined,
    (mac) => vendorOfMac(mac) ?? null,
    (mac, accounts) => provisioningRef?.setPhoneAccounts(mac, accounts) ?? Promise.resolve(),
    async () => (await provisioningRef?.getDefaults())?.provisioning_url_scheme === 'https',
  );
  const phonesReleased = (macs: string[]) => devicesService.syncPhones(macs);
  const directory = new DirectoryService(database.db, jobs, config.localDomain, pbx.applier.markDirty, phonesReleased);
  await app.register(directoryRoutes(directory));
  await app.register(
    usersRoutes(
      new UsersService(database.db, directory, config.extensionLimit, devicesService, () =>
        pbx.live.registeredAccounts(),
      ),
    ),
  );
  const csv = new CsvService(
    database.db,
    jobs,
    directory,
    pbx.applier.markDirty,
    phonesReleased,
    (trx, main, type, on) => devicesService.switchInTransaction(trx, main, type, on),
  );
  await app.register(csvRoutes(csv));
  const cti = new CtiService(database.db, {
    engine: config.provisioningEngine,
    // Without a licence limit the system counts as licensed (the original: an enterprise subscription).
    licenceActive: config.extensionLimit === undefined,
  });
  await app.register(ctiRoutes(cti));
  await app.register(trunksRoutes(new TrunksService(database.db)));
  await app.register(cardSourcesRoutes(new CardSourcesService(database.db, now)));
  const cardQueries = new CardQueryRunner({ kind: database.kind, location: database.location });
  const customerCards = new CustomerCardsService(database.db, cardQueries, now);
  await app.register(customerCardsRoutes(customerCards));
  app.addHook('onClose', () => cardQueries.close());
  app.addHook('onClose', () => customerCards.close());
  await app.register(paramUrlsRoutes(new ParamUrlsService(database.db, now)));
  await app.register(
    cloudSpeechRoutes(new CloudSpeechService(database.db, config.dataDir, googleSpeech), pbx.voicemailSttToken),
  );
  await app.register(streamingRoutes(new StreamingService(database.db, config.streamingAllowedHosts, now)));
  const phonebook = new PhonebookService(database.db, config.dataDir, now);
  await app.register(phonebookRoutes(phonebook));
  app.decorate('phonebook', phonebook);
  app.addHook('onReady', async () => phonebook.start());
  app.addHook('onClose', () => phonebook.stop());
  await app.register(
    bulkRoutes(new BulkService(database.db, (accounts) => pbx.live.clearCallWaitingOverrides(accounts))),
  );
  await app.register(devicesRoutes(devicesService));
  await app.register(legacyReadsRoutes(devicesService, pbx.live));
  await app.register(
    routesRoutes(new InboundRoutesService(database.db), new OutboundRoutesService(database.db), config.routePlannerUrl),
  );
  const recordings = new RecordingsService(database.db, { dir: config.pbx.soundsDir, gid: config.pbx.runAs.gid });
  await app.register(flowsRoutes(recordings, new FlowsService(database.db, pbx.ami)));
  await app.register(phoneRecordingRoutes(recordings, pbx.voicemailSttToken, phoneRecordingDir(config.pbx.soundsDir)));
  await app.register(queueRoutes(new QueuesService(database.db)));
  await app.register(blockingRoutes(new BlockingService(database.db)));
  await app.register(conferenceRoutes(new ConferencesService(database.db), new ConferenceLive(() => pbx.ami)));
  const music = new MusicService(database.db, { dir: config.pbx.soundsDir, gid: config.pbx.runAs.gid });
  await app.register(musicRoutes(music));
  await app.register(ringGroupRoutes(new RingGroupsService(database.db)));
  await app.register(parkingRoutes(database.db, new ParkingService(database.db), new ParkingLive(() => pbx.ami)));
  await app.register(followMeRoutes(new FollowMeService(database.db)));
  await app.register(timeRoutes(new TimeConditionsService(database.db, pbx.ami)));
  await app.register(
    cqrRoutes(
      new CqrService(database.db, (source, query, number) => customerCards.runOnSource(source, query, number)),
      pbx.voicemailSttToken,
    ),
  );
  // Recordings uploaded through another process, or before the sounds directory was moved, are written out.
  app.addHook('onReady', async () => {
    recordings.syncFiles().catch((error) => app.log.error({ err: error }, 'could not write the recordings'));
    music.syncFiles().catch((error) => app.log.error({ err: error }, 'could not write the music on hold files'));
  });
  const gateways = new GatewaysService(database.db, {
    tftpPort: config.tftpPort,
    tftpHost: config.host,
    controlPort: config.gatewayControlPort,
    log: app.log,
    pbxPorts: { sip: config.pbx.ports.sip, tls: config.pbx.ports.tls },
  });
  await app.register(gatewaysRoutes(gateways));
  const migration = new MigrationService(database, config.migration, {
    cti,
    csv,
    gateways,
    recordings,
    applyNow: async () => {
      pbx.applier.markDirty();
      await pbx.applier.idle();
      return (await pbx.applier.status()).last;
    },
    log: app.log,
  });
  await app.register(migrationRoutes(migration));
  const callIndexer = new CallIndexer(database.db, app.log);
  await app.register(callsRoutes(new CallsService(database.db, callIndexer)));
  await app.register(callReportsRoutes(new ReportsService(database.db)));
  app.addHook('onReady', async () => callIndexer.start());
  app.addHook('onClose', () => callIndexer.close());
  const callRecordings = new CallRecordingsService(database.db, config.recordingsDir, {
    gid: config.pbx.runAs.gid,
    promptAvailable: () => noticePromptInstalled(config.pbx.directories.data),
    log: app.log,
    now,
  });
  await app.register(callRecordingsRoutes(callRecordings));
  const retention = new RecordingRetention(callRecordings, app.log);
  app.addHook('onReady', async () => retention.start());
  app.addHook('onClose', () => retention.close());
  app.addHook('onReady', () => migration.start());
  app.addHook('onClose', () => migration.close());
  // Gateways may fetch their files at any time (e.g. after a reset), so a listening console serves them.
  app.addHook('onListen', async () => {
    await gateways.tftp.ensureStarted();
  });
  app.addHook('onClose', () => gateways.tftp.close());
  const scans = new ScanService(database.db, jobs, { dataDir: config.dataDir, log: app.log });
  const reboots = new RebootService(database.db, { ami: () => pbx.ami, log: app.log });
  await app.register(phoneActionsRoutes(scans, reboots, config.rps));
  await app.register(
    phoneConfigRoutes(
      new PhoneConfigService({
        db: database.db,
        scans,
        provisioning: () => provisioningRef,
        syncPhones: (macs) => devicesService.syncPhones(macs),
        registered: () => pbx.live.registeredAccounts(),
      }),
    ),
  );
  // Delayed reboots stored before a restart fire at their time; a scan stops with the server.
  app.addHook('onReady', () => reboots.start());
  app.addHook('onClose', async () => {
    reboots.close();
    scans.stopAll();
  });
  // Jobs keep running in the background; let them finish before the database closes.
  app.addHook('onClose', async () => {
    await jobs.idle();
    jobs.close();
  });
  app.addHook('onReady', async () => pbx.start());
  app.addHook('onClose', () => pbx.close());

  // Phone models, defaults, phones and the files phones download (/provisioning/{token}/…).
  // Provisioning URLs name the listener phones really reach: the HTTP port (known once listening) or HTTPS_PORT.
  const provisioning = await registerProvisioning(app, {
    db: database.db,
    dataDir: config.dataDir,
    warmAfter: () => pbx.applier.idle(),
    phoneFilesExport: config.phoneFilesExport,
    serverHost: defaultServerHost(config.host),
    // The ports the transports written for Asterisk listen on (pbx/render), whoever runs it.
    sipPorts: { sip: config.pbx.ports.sip, tls: config.pbx.ports.tls },
    listeners: () => {
      const address = app.server.listening ? app.server.address() : null;
      return {
        http: address && typeof address === 'object' ? address.port : config.port,
        https: config.https.port === 0 ? null : config.https.port,
      };
    },
  });
  provisioningRef = provisioning;
  provisioning.onChange = (trx) => changes.publishIn(trx, 'provisioning');
  changes.on('provisioning', () => {
    provisioning.cache
      .otherProcessChanged()
      .catch((error) => app.log.warn({ err: error }, 'reading the provisioning generation failed'));
  });
  await app.register(
    bulkPhonesRoutes(new BulkPhonesService({ db: database.db, provisioning, live: pbx.live, reboots, jobs })),
  );
  const phonebookLdap = new PhonebookLdapService({
    db: database.db,
    slapd: new Slapd(path.join(config.dataDir, 'phonebook-ldap'), app.log),
    serverHost: provisioning.serverHost,
    listenHost: config.host,
    ports: config.phonebookLdapPorts,
    tls: async () => {
      const files = await tlsFiles({ ...config.https, dataDir: config.dataDir });
      return { cert: files.cert, key: files.key };
    },
    log: app.log,
  });
  phonebook.onChange(() => phonebookLdap.changed());
  await app.register(phonebookLdapRoutes(phonebookLdap));
  app.decorate('phonebookLdap', phonebookLdap);
  app.addHook('onReady', async () => phonebookLdap.start());
  app.addHook('onClose', () => phonebookLdap.stop());

  const backups = new BackupService({
    db: database.db,
    dataDir: config.dataDir,
    version: VERSION,
    backupDir: config.backupDir,
    restoreMaxBytes: config.backupRestoreMaxBytes,
    now,
    log: app.log,
    inRestore: (trx) => provisioning.allChanged(trx),
    afterRestore: async () => {
      pbx.applier.markDirty();
      phonebookLdap.changed();
      await recordings.writeAll();
      await music.syncFiles(true);
    },
  });
  await app.register(backupRoutes(backups));
  app.decorate('backups', backups);
  app.addHook('onReady', () => backups.start());
  app.addHook('onClose', () => backups.stop());

  await registerSpa(app, config.webDistDir);
  return { app, auth, jobs, provisioning };
}
