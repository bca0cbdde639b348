import { List, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApplyBannerFrame } from './ApplyBannerFrame.tsx';
import { useApplyStatus } from './useApplyStatus.ts';

/**
 * Shown above every screen while the last apply was written but Asterisk did not take all of it up
 * (a transport or listener without its certificate, a trunk whose host did not resolve, a restart
 * still waiting): the server's sentences say what, this says what it means and offers to apply again.
 */
export function ApplyWarningsBanner() {
  const { t } = useTranslation();
  const status = useApplyStatus();
  const last = status.data?.last;
  if (!last?.ok || last.warnings.length === 0) return null;
  return (
    <ApplyBannerFrame
      role="status"
      color="yellow"
      testId="pbx-apply-warnings"
      icon={<IconAlertCircle size={18} />}
      title={t('pbx.warnings.title')}
      hint={t('pbx.warnings.hint')}
    >
      {() => (
        <>
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
        </>
      )}
    </ApplyBannerFrame>
  );
}
