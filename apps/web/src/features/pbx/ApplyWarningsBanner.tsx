import { Box, Button, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../components/notify.ts';
import { useApplyStatus, useRetryApply } from './useApplyStatus.ts';

/**
 * Shown above every screen while the last apply was written but Asterisk did not take all of it up
 * (a transport or listener without its certificate, a trunk whose host did not resolve, a restart
 * still waiting): the server's sentences say what, this says what it means and offers to apply again.
 */
export function ApplyWarningsBanner() {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const retry = useRetryApply();
  const headingId = useId();
  const last = status.data?.last;
  if (!last?.ok || last.warnings.length === 0) return null;
  const busy = status.data?.state !== 'idle';
  return (
    <Box
      role="status"
      aria-labelledby={headingId}
      data-testid="pbx-apply-warnings"
      mb="md"
      p="md"
      style={{
        border: '2px solid var(--mantine-color-yellow-filled)',
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-yellow-light)',
        color: 'var(--mantine-color-text)',
      }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <ThemeIcon color="yellow.9" variant="filled" radius="xl" aria-hidden>
          <IconAlertCircle size={18} />
        </ThemeIcon>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <Text id={headingId} fw={700}>
            {t('pbx.warnings.title')}
          </Text>
          <Text size="sm">{t('pbx.warnings.intro')}</Text>
          <List size="sm" spacing={4}>
            {last.warnings.map((w) => (
              <List.Item key={w}>
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {w}
                </Text>
              </List.Item>
            ))}
          </List>
          <Group gap="sm">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconRefresh size={14} />}
              loading={retry.isPending}
              disabled={busy}
              onClick={() =>
                retry.mutate(undefined, { onError: (error) => notifyError(t('pbx.banner.retryError'), error) })
              }
            >
              {t('pbx.banner.retry')}
            </Button>
            <Text size="xs">{busy ? t('pbx.banner.applying') : t('pbx.warnings.hint')}</Text>
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}
