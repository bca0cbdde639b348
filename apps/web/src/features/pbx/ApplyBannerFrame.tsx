import { Box, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { useApplyStatus, useRetryApply } from './useApplyStatus.ts';

/**
 * The frame of the banners shown above every screen about the last apply: a coloured box named by its
 * title for screen readers, an icon, the body, and Apply again with a hint (or 'applying' meanwhile).
 */
export function ApplyBannerFrame(props: {
  role: 'alert' | 'status';
  color: 'red' | 'yellow';
  testId: string;
  icon: ReactNode;
  title: string;
  hint: string;
  children: (headingId: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const retry = useRetryApply();
  const headingId = useId();
  const busy = status.data?.state !== 'idle';
  return (
    <Box
      role={props.role}
      aria-labelledby={headingId}
      data-testid={props.testId}
      mb="md"
      p="md"
      style={{
        border: `2px solid var(--mantine-color-${props.color}-filled)`,
        borderRadius: 'var(--mantine-radius-md)',
        background: `var(--mantine-color-${props.color}-light)`,
        color: 'var(--mantine-color-text)',
      }}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <ThemeIcon color={`${props.color}.9`} variant="filled" radius="xl" aria-hidden>
          {props.icon}
        </ThemeIcon>
        <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
          <Text id={headingId} fw={700}>
            {props.title}
          </Text>
          {props.children(headingId)}
          <Group gap="sm">
            <WriteButton
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
            </WriteButton>
            <Text size="xs">{busy ? t('pbx.banner.applying') : props.hint}</Text>
          </Group>
        </Stack>
      </Group>
    </Box>
  );
}
