import { canonicalMac, RPS_PROVIDER_OF_VENDOR, vendorOfMac } from '@centralino/contract';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.ts';

export interface RpsOptions {
  /** Base address, without a trailing slash. */
  url: string;
  systemId: string | undefined;
  secret: string | undefined;
  timeoutMs?: number;
  log?: FastifyBaseLogger;
}

/**
 * Registers a phone with the vendor redirect service (contract api-core §13.2), so a factory-new phone
 * fetches its configuration from `provisioningUrl`. Answers the service's success status; failures
 * become errors the console reports (the phone then needs its URL entered by hand).
 */
export async function registerWithRps(options: RpsOptions, macInput: string, provisioningUrl: string): Promise<number> {
  const mac = canonicalMac(macInput);
  if (!mac) throw new AppError(400, 'validation', undefined, { mac: 'Invalid MAC address' });
  const vendor = vendorOfMac(mac);
  const provider = vendor ? RPS_PROVIDER_OF_VENDOR[vendor] : undefined;
  if (!provider) throw new AppError(400, 'rps_unsupported_vendor');

  const target = `${options.url}/providers/${provider}/${mac}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.systemId && options.secret) {
    headers.authorization = `Basic ${Buffer.from(`${options.systemId}:${options.secret}`).toString('base64')}`;
  }
  let res: Response;
  try {
    res = await fetch(target, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ url: provisioningUrl }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      redirect: 'error',
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (error) {
    options.log?.warn({ err: error, target }, 'redirect service not reachable');
    throw new AppError(502, 'rps_unreachable');
  }
  if (res.ok) return res.status;
  options.log?.warn({ status: res.status, target }, 'redirect service refused the phone');
  // 401/403 here are the service refusing this system's credentials, not the admin's session, and 5xx
  // is the service failing: both would mislead as our own status, so they become 502.
  const status = res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403 ? res.status : 502;
  throw new AppError(status, 'rps_rejected', (lang) =>
    lang === 'it'
      ? `Il servizio di reindirizzamento ha risposto ${res.status}: inserisci l'URL di provisioning nell'interfaccia web del telefono.`
      : `The redirect service answered ${res.status}: enter the provisioning URL in the phone's web interface.`,
  );
}
