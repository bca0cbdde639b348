import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import { readCredentials } from '../../api/credentials.ts';

export interface LiveEvent {
  event: string;
  data: unknown;
}

const RETRY_MS = 3000;

/**
 * Follows GET /api/dashboard/events (server-sent events) until stopped. Read with fetch rather than
 * EventSource, which cannot send the User and Secretkey headers every API call carries; a dropped stream
 * is opened again after RETRY_MS. Returns the function that stops it.
 */
export function followLiveEvents(onEvent: (event: LiveEvent) => void, onOpen?: (open: boolean) => void): () => void {
  const abort = new AbortController();
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = async () => {
    const credentials = readCredentials();
    if (!credentials) return;
    try {
      const response = await fetch('/api/dashboard/events', {
        headers: {
          Accept: 'text/event-stream',
          [AUTH_USER_HEADER]: credentials.user,
          [AUTH_KEY_HEADER]: credentials.secretkey,
        },
        signal: abort.signal,
      });
      // Signed out meanwhile: the next API call of the screen signs the console out; nothing to retry.
      if (response.status === 401 || !response.body) return;
      onOpen?.(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).trim();
          }
          if (!data) continue; // a comment line: the server keeping the stream open
          try {
            onEvent({ event, data: JSON.parse(data) });
          } catch {
            // Not JSON: not one of ours.
          }
        }
      }
    } catch {
      if (abort.signal.aborted) return;
    }
    onOpen?.(false);
    if (!abort.signal.aborted) retry = setTimeout(() => void open(), RETRY_MS);
  };

  void open();
  return () => {
    abort.abort();
    clearTimeout(retry);
  };
}
