import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConnectivityOptions } from './connectivity.ts';
import { FileStore } from './files.ts';
import { followFirstUseLog } from './first-use-reports.ts';
import { PhoneFileExport } from './phone-file-export.ts';
import { PhoneFiles } from './phone-files.ts';
import { phoneFileFront, phoneFileRoutes, provisioningApiRoutes } from './routes.ts';
import { type ProvisioningOptions, ProvisioningService } from './service.ts';

/** The engine API's path in the original product. */
export const LEGACY_PROVISIONING_API_BASE = '/tancredi/api/v1';

export type { PhoneAccount } from './accounts.ts';
export { ProvisioningService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The provisioning engine (the PBX side calls setPhoneAccounts on it). */
    provisioning: ProvisioningService;
    /**
     * Answers a phone's request from memory before Fastify sees it (true), or leaves it to Fastify (false).
     * Each listener calls it first: the plain one (buildApp's serverFactory) and the HTTPS one.
     */
    phoneFront: (req: IncomingMessage, res: ServerResponse) => boolean;
  }
}

export interface ProvisioningSetup extends ProvisioningOptions {
  db: Kysely<Database>;
  dataDir: string;
  connectivity?: ConnectivityOptions;
  /** Clock for rendered files (time-zone offsets); tests pin it. */
  renderClock?: () => Date;
  /**
   * Resolves when the start-up work that must not wait for the phone-file warmer is done (the first PBX apply);
   * the warmer starts then, or after WARM_WAIT_MS at the latest.
   */
  warmAfter?: () => Promise<unknown>;
  /** PHONE_FILES_DIR: phone files also written to disk for a front web server (PHONE_FILES_FIRST_USE_LOG: its reports). */
  phoneFilesExport?: { dir: string; gid: number | null; firstUseLog?: string };
}

const WARM_WAIT_MS = 5000;

/** Registers the engine API, the phone-file routes and `app.provisioning`; answers the service. */
export async function registerProvisioning(
  app: FastifyInstance,
  setup: ProvisioningSetup,
): Promise<ProvisioningService> {
  const service = new ProvisioningService(setup.db, setup);
  const files = new FileStore(setup.db, setup.dataDir, () => service.filesChanged());
  let disk: PhoneFileExport | undefined;
  if (setup.phoneFilesExport) {
    disk = new PhoneFileExport(setup.phoneFilesExport.dir, setup.phoneFilesExport.gid, app.log);
    disk.start();
  }
  const phoneFiles = new PhoneFiles(service, files, app.log, setup.renderClock, disk);
  const firstUseLog = setup.phoneFilesExport?.firstUseLog;
  if (firstUseLog !== undefined) {
    try {
      const reports = await followFirstUseLog(firstUseLog, (tok2) => phoneFiles.usedOnDisk(tok2), app.log);
      phoneFiles.reportFirstUse();
      app.addHook('onClose', () => reports.close());
    } catch (error) {
      // Phones are still served right: their first steady-state fetch goes to Centralino, as without the reports.
      app.log.error({ err: error, file: firstUseLog }, 'PHONE_FILES_FIRST_USE_LOG: cannot read the front server’s log');
    }
  }
  app.decorate('provisioning', service);
  app.decorate('phoneFront', phoneFileFront(phoneFiles));
  await app.register(provisioningApiRoutes({ service, files, phoneFiles, connectivity: setup.connectivity }));
  // The original's path, still used by existing scripts (behind the same sign-in key, see plugins/auth.ts).
  await app.register(provisioningApiRoutes({ service, files, phoneFiles, base: LEGACY_PROVISIONING_API_BASE }));
  await app.register(phoneFileRoutes(service, phoneFiles));
  // Fill the file cache once the server listens for phones and the start-up apply is done (rendering 2,000 phones'
  // files alongside it would make it slower); stop before the database closes.
  app.addHook('onListen', async () => {
    const waited = setup.warmAfter?.() ?? Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise((resolve) => {
      timer = setTimeout(resolve, WARM_WAIT_MS);
      timer.unref();
    });
    void Promise.race([waited.catch(() => {}), cap]).then(() => {
      clearTimeout(timer);
      phoneFiles.startWarming();
    });
  });
  app.addHook('onClose', () => phoneFiles.stop());
  return service;
}
