/** Set by the build from package.json; "dev" when running from source. */
declare const __CENTRALINO_VERSION__: string | undefined;
export const VERSION = typeof __CENTRALINO_VERSION__ === 'string' ? __CENTRALINO_VERSION__ : 'dev';
