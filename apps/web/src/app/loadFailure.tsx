import { Alert, Button, Center, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

const RELOADED_AT = 'centralino.reloadedForCode';
/** A second failure this soon after a reload is not a passing hiccup: say so instead of reloading in a loop. */
const RELOAD_GRACE_MS = 15_000;

/**
 * A screen's code is fetched when it is first opened. When that fetch fails (the connection dropped for a moment,
 * the console was upgraded under an open tab and the old files are gone), the browser keeps the failure for the
 * page's life: only a reload fetches again. So reload once, at once; answers whether it did.
 */
export function reloadForCode(): boolean {
  const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
  if (Date.now() - last < RELOAD_GRACE_MS) return false;
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  window.location.reload();
  return true;
}

/** Vite's loader announces a failed chunk (the screen's code or its styles) before the screen's error shows. */
export function reloadWhenCodeFails() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForCode()) event.preventDefault();
  });
}

const CODE_FAILURE = /dynamically imported module|Importing a module script failed|Unable to preload/i;

/** What a screen that could not be shown says, in the reader's language, with a way on: reload. */
export function ScreenFailure() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = error instanceof Error ? error.message : String(error ?? '');
  const code = CODE_FAILURE.test(message);
  return (
    <Center mt="xl" px="md">
      <Alert color="red" role="alert" title={t(code ? 'app.failure.codeTitle' : 'app.failure.title')} maw={560}>
        <Stack gap="sm">
          <Text size="sm">{t(code ? 'app.failure.codeHint' : 'app.failure.hint')}</Text>
          {!code && message && (
            <Text size="xs" c="dimmed">
              {message}
            </Text>
          )}
          <Button
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => window.location.reload()}
            w="fit-content"
          >
            {t('app.failure.reload')}
          </Button>
        </Stack>
      </Alert>
    </Center>
  );
}
