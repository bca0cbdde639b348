// Types of asterisk-tier.mjs, for the TypeScript tests that import it.
export interface AsteriskTier {
  sourceDir: string;
  cacheRoot: string;
  tarball: string | undefined;
  pjprojectTarball: string | undefined;
  ready: boolean;
  buildable: boolean;
  reason: string;
  prefix: string;
  readyMarker: string;
  failedMarker: string;
  isReady(): boolean;
  sipp: string;
}
export function asteriskTier(): AsteriskTier;
