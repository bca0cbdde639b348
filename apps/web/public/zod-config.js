// Read by zod when it loads: the console runs under a Content-Security-Policy without 'unsafe-eval', so
// zod's compiled fast path (and the probe for it, which browsers report as a violation) stays off.
// A classic script, so it runs before the app's modules; not inline, so the policy needs no exception.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
