import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';
import { signInCatalogue } from './signInCatalogue.ts';

export default defineConfig({
  plugins: [react(), signInCatalogue(), precompress()],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first page needs (the sign-in page: App.tsx imports nothing else statically)
          // in one chunk rather than twenty small ones: on a slow link each request costs a round trip.
          groups: [{ name: 'signin', tags: ['$initial'] }],
        },
      },
    },
  },
});
