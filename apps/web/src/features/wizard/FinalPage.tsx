import { pbxLastApplyFailed } from '@centralino/contract';
import { Button, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApplyFailureDetails } from '../pbx/ApplyFailureBanner.tsx';
import { useApplyStatus } from '../pbx/useApplyStatus.ts';
import { PrintReportButton } from '../report/PrintReportButton.tsx';

export function FinalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const status = useApplyStatus();
  // 'Configured' is said only once it is known that the last apply did not fail.
  if (status.isPending) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const last = status.data?.last;
  const failed = pbxLastApplyFailed(status.data) && last;
  return (
    <Stack align="center" gap="md" mt="xl" ta="center">
      {failed ? (
        <ThemeIcon size={64} radius="xl" color="red.9" aria-hidden>
          <IconAlertTriangle size={40} />
        </ThemeIcon>
      ) : (
        <ThemeIcon size={64} radius="xl" color="teal" aria-hidden>
          <IconCheck size={40} />
        </ThemeIcon>
      )}
      <Title order={1} size="h2">
        {failed ? t('final.failedTitle') : t('final.title')}
      </Title>
      <Text c={failed ? undefined : 'dimmed'} maw={560}>
        {failed ? t('final.failedBody') : t('final.body')}
      </Text>
      {failed && (
        <Stack maw={640} ta="left" data-testid="final-apply-failure">
          <ApplyFailureDetails last={last} />
        </Stack>
      )}
      <Group justify="center">
        <Button onClick={() => navigate('/')}>{t('final.goHome')}</Button>
        <PrintReportButton variant="default" />
      </Group>
      <Text size="sm" c="dimmed" maw={520}>
        {t('final.reportHint')}
      </Text>
    </Stack>
  );
}
