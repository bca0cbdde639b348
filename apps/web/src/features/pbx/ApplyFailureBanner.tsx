import { type PbxApplyRecord, pbxLastApplyFailed, pbxProblemScreen } from '@centralino/contract';
import { Anchor, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApplyBannerFrame } from './ApplyBannerFrame.tsx';
import { objectsAtFault, useApplyStatus } from './useApplyStatus.ts';

/** Objects listed by name; the rest are counted. */
const MAX_OBJECTS_SHOWN = 5;

/** What went wrong in the last apply: each object at fault with what to do, or the failure itself. */
export function ApplyFailureDetails({ last, headingId }: { last: PbxApplyRecord; headingId?: string }) {
  const { t } = useTranslation();
  const objects = objectsAtFault(last.problems);
  if (objects.length === 0) {
    // Not a refusal of the check (a write or reload failed): the server's words are all there is.
    return (
      <Stack gap={4}>
        <Text size="sm">{t('pbx.banner.notWritten')}</Text>
        {last.error && (
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {last.error}
          </Text>
        )}
      </Stack>
    );
  }
  const shown = objects.slice(0, MAX_OBJECTS_SHOWN);
  return (
    <Stack gap={4}>
      <Text size="sm">{t('pbx.banner.intro', { count: objects.length })}</Text>
      <List size="sm" spacing={6} aria-labelledby={headingId} data-testid="pbx-apply-problems">
        {shown.map(({ object, messages }) => {
          const screen = pbxProblemScreen(object.kind);
          return (
            <List.Item key={`${object.kind}:${object.id}`}>
              <Text size="sm" fw={700} span>
                {t(`pbx.kind.${object.kind}`, { label: object.label })}
              </Text>
              {': '}
              <Text size="sm" span>
                {t(`pbx.fix.${object.kind}`)}
              </Text>{' '}
              {screen && (
                <Anchor
                  component={Link}
                  to={screen}
                  size="sm"
                  fw={700}
                  underline="always"
                  c="var(--mantine-color-text)"
                >
                  {t(`pbx.open.${object.kind}`)}
                </Anchor>
              )}
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {t('pbx.banner.detail', { detail: messages.join('; ') })}
              </Text>
            </List.Item>
          );
        })}
      </List>
      {objects.length > shown.length && (
        <Text size="sm">{t('pbx.banner.more', { count: objects.length - shown.length })}</Text>
      )}
    </Stack>
  );
}

/**
 * Shown above every screen while the last apply of the PBX configuration failed, until an apply
 * succeeds: names the objects at fault, what to do, and offers to apply again.
 */
export function ApplyFailureBanner() {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const last = status.data?.last;
  if (!pbxLastApplyFailed(status.data) || !last) return null;
  return (
    <ApplyBannerFrame
      role="alert"
      color="red"
      testId="pbx-apply-banner"
      icon={<IconAlertTriangle size={18} />}
      title={t('pbx.banner.title')}
      hint={t('pbx.banner.retryHint')}
    >
      {() => <ApplyFailureDetails last={last} />}
    </ApplyBannerFrame>
  );
}
