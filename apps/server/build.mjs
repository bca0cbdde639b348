// Bundles the server into dist/main.js (its validator thread into dist/validate-worker.js, the voicemail transcription mail command into dist/voicemail-stt.js); npm dependencies stay external, the workspace contract is inlined.
import { cpSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url)));
const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url)));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith('@centralino/'));

await build({
  // The PBX configuration check runs on a thread of its own, from a file of its own.
  entryPoints: {
    main: 'src/main.ts',
    'validate-worker': 'src/pbx/validate-worker.ts',
    // Customer-card templates are parsed and rendered on threads of their own (custcards/render-thread.ts).
    'card-render-worker': 'src/features/custcards/render-worker.ts',
    // The voicemail mail command when transcription is on (voicemail-stt/helper.ts), run by Asterisk.
    'voicemail-stt': 'src/voicemail-stt/main.ts',
    // Maintenance commands (reset-2fa), README.
    cli: 'src/cli.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, 'zod'],
  define: { __CENTRALINO_VERSION__: JSON.stringify(root.version) },
  logLevel: 'warning',
});

// Phone templates are read at run time; the bundle looks for them next to itself.
cpSync('src/provisioning/templates', 'dist/provisioning-templates', { recursive: true });
