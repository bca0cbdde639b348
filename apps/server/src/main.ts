import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { prepareDataDir } from './data-dir.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import type { ManagedPbx } from './pbx/engine.ts';
import { isProblem } from './pbx/managed/installation.ts';
import { prepareManagedLayout, resolveManagedPbx } from './pbx/managed/layout.ts';
import { closeHttps, httpsPort, listenHttps, tlsFiles } from './plugins/https-listener.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const started = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    // apps/server/dist (built) or apps/server/src (tsx): the web app is built into apps/web/dist.
    config = loadConfig(process.env, { webDistDir: path.resolve(here, '../../web/dist') });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }

  // Everything the console writes is private unless a writer says otherwise (the Asterisk files are
  // group-readable by their own chmod).
  process.umask(0o077);
  // Managed mode: which Asterisk this process runs, as whom (decided before DATA_DIR is made for its group).
  const managed = config.pbx.mode === 'managed' ? resolveManagedPbx(config) : undefined;
  if (managed) config = managed.config;
  const dataDir = prepareDataDir(config.dataDir, {
    configDir: config.pbx.configDir,
    gid: config.pbx.runAs.gid,
    recordingsDir: config.recordingsDir,
  });
  let managedPbx: ManagedPbx | undefined;
  if (managed) {
    const layout = prepareManagedLayout(config, managed.installation);
    config = layout.config;
    managedPbx = { installation: managed.installation, warnings: layout.warnings };
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db);
  const { app, auth, jobs } = await buildApp({ config, database, managedPbx });
  // Jobs of a process that stopped are failed now and, with PostgreSQL, whenever another process dies.
  await jobs.watchInterrupted();
  for (const warning of dataDir.warnings) app.log.warn({ dataDir: config.dataDir }, warning);
  for (const warning of managedPbx?.warnings ?? []) app.log.warn({}, warning('en'));

  const admin = await auth.ensureAdmin(config.adminPassword);
  if (admin.generatedPassword) {
    // Printed once, outside the JSON log, so the installer sees it on first start.
    console.log(
      `\n  Centralino administrator created.\n  Username: admin\n  Password: ${admin.generatedPassword}\n` +
        '  Keep it safe: it is not shown again (change it under Admin > Settings).\n',
    );
  }
  await auth.purgeIdleSessions();

  let httpsServer: Awaited<ReturnType<typeof listenHttps>> | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      if (httpsServer) await closeHttps(httpsServer);
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { address, database: database.kind, dataDir: config.dataDir, startupMs: Math.round(performance.now() - started) },
    'Centralino listening',
  );
  const { port } = app.server.address() as AddressInfo;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  console.log(`  Centralino is running at ${wildcard ? `http://localhost:${port}` : address}`);
  if (managedPbx) {
    const found = managedPbx.installation;
    console.log(
      isProblem(found)
        ? `  The phone system cannot start: ${found.detail('en')}`
        : `  Phone system: ${found.version}, phones register on SIP port ${config.pbx.ports.sip} (UDP and TCP)`,
    );
  }
  if (config.https.port !== 0) {
    const tls = await tlsFiles({ ...config.https, dataDir: config.dataDir });
    httpsServer = await listenHttps(app, {
      port: config.https.port,
      host: config.host,
      cert: tls.cert,
      key: tls.key,
    });
    const port = httpsPort(httpsServer);
    app.log.info({ port, certificate: tls.certFile, selfSigned: tls.generated }, 'HTTPS listening');
    console.log(`  and over HTTPS on port ${port} (certificate ${tls.certFile})`);
  }
}

main().catch((error) => {
  console.error('Centralino failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
