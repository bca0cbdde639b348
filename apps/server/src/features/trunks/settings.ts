import { PROVIDER_BASELINE, type VoipProvider } from '@centralino/contract';

export interface TrunkRequest {
  name: string;
  username: string;
  password: string;
  phone: string;
  codecs: string[];
  forceCodec: boolean;
  continue?: boolean;
}

/** Codecs of a trunk: exactly the chosen ones, or the chosen ones first and then the provider's own. */
export function trunkCodecs(chosen: string[], forceCodec: boolean, providerCodecs: string): string[] {
  if (forceCodec) return [...new Set(chosen)];
  return [...new Set([...chosen, ...providerCodecs.split(',').filter(Boolean)])];
}

/**
 * The PJSIP settings of a new trunk from its provider template (contract §1.4): baseline, the
 * provider's differences, the account, then the provider's special options with $PHONE/$USERNAME.
 * Answers the settings without the secret, and the username and secret to store.
 */
export function buildTrunkSettings(provider: VoipProvider, request: TrunkRequest) {
  const settings: Record<string, string> = { ...PROVIDER_BASELINE };
  for (const [key, value] of Object.entries(provider.overrides ?? {})) {
    if (value === null) delete settings[key];
    else settings[key] = value;
  }
  Object.assign(settings, {
    sip_server: provider.sipServer,
    sip_server_port: String(provider.sipServerPort),
    from_domain: provider.fromDomain,
    context: provider.context,
    contact_user: request.username,
    from_user: request.username,
    username: request.username,
    secret: request.password,
    trunk_name: request.name,
    sv_trunk_name: request.name,
    sv_channelid: request.name,
    codecs: trunkCodecs(request.codecs, request.forceCodec, provider.codecs).join(','),
    continue: request.continue ? 'on' : 'off',
  });
  for (const [key, value] of Object.entries(provider.special ?? {})) {
    settings[key] = value.replaceAll('$PHONE', request.phone).replaceAll('$USERNAME', request.username);
  }
  const { username = '', secret = '', codecs = '', ...rest } = settings;
  return { settings: rest, username, secret, codecs };
}
