import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { reloadWhenCodeFails } from './app/loadFailure.tsx';
import { i18nReady } from './i18n/index.ts';

reloadWhenCodeFails();

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
// The language's catalogue is a chunk of its own (i18n/index.ts): the first paint waits for it, so no
// screen ever shows untranslated keys.
void i18nReady.finally(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
