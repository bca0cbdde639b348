import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PrintReportButton } from '../report/PrintReportButton.tsx';

export function FinalPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack align="center" gap="md" mt="xl" ta="center">
      <ThemeIcon size={64} radius="xl" color="teal">
        <IconCheck size={40} />
      </ThemeIcon>
      <Title order={2}>{t('final.title')}</Title>
      <Text c="dimmed" maw={520}>
        {t('final.body')}
      </Text>
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
