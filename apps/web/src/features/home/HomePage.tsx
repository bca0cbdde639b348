import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/endpoints.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError } from '../../components/notify.ts';
import { useEngine, useWizardMove } from '../wizard/useWizard.ts';

export function HomePage() {
  const { t } = useTranslation();
  const engine = useEngine();
  const languages = useQuery({ queryKey: ['languages'], queryFn: api.languages });
  const move = useWizardMove(engine.data ?? 'tancredi');
  const current = Object.entries(languages.data ?? {}).find(([, v]) => v.default)?.[0];

  const restart = async () => {
    const ok = await confirmAction({ title: t('home.restartTitle'), message: t('home.restartBody') });
    if (ok) move.mutate({ status: 'true', step: 0 }, { onError: (e) => notifyError(t('wizard.saveError'), e) });
  };

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('home.title')}
      </Title>
      <Text>{t('home.body')}</Text>
      <Card withBorder radius="md">
        <Group justify="space-between">
          <Text fw={500}>{t('home.systemLanguage')}</Text>
          <Text data-testid="home-language">{current ? t(`languages.names.${current}`) : '—'}</Text>
        </Group>
      </Card>
      <Group>
        <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={restart} loading={move.isPending}>
          {t('home.restartWizard')}
        </Button>
      </Group>
    </Stack>
  );
}
