import { Button, Card, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { useEngine, useWizardMove } from '../wizard/useWizard.ts';

/** The system's language and the way back into the setup wizard (once on the home page, now the dashboard's). */
export function SystemCard() {
  const { t } = useTranslation();
  const engine = useEngine();
  const languages = useQuery({ queryKey: ['languages'], queryFn: api.languages });
  const move = useWizardMove(engine.data ?? 'tancredi');
  const current = Object.entries(languages.data ?? {}).find(([, v]) => v.default)?.[0];

  const restart = async () => {
    const ok = await confirmAction({ title: t('admin.restartTitle'), message: t('admin.restartBody') });
    if (ok) move.mutate({ status: 'true', step: 0 }, { onError: (e) => notifyError(t('wizard.saveError'), e) });
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="admin-system">
      <Stack gap="sm">
        <Title order={2} size="h4" id="admin-system">
          {t('admin.system')}
        </Title>
        <Group justify="space-between">
          <Text fw={500}>{t('admin.systemLanguage')}</Text>
          <Group gap="xs">
            <Text data-testid="system-language">{current ? t(`languages.names.${current}`) : '—'}</Text>
            <Button component={Link} to="/admin/languages" size="compact-sm" variant="subtle">
              {t('admin.change')}
              <VisuallyHidden> {t('admin.systemLanguage')}</VisuallyHidden>
            </Button>
          </Group>
        </Group>
        <Group>
          <WriteButton
            variant="light"
            leftSection={<IconRefresh size={16} />}
            onClick={restart}
            loading={move.isPending}
          >
            {t('admin.restartWizard')}
          </WriteButton>
        </Group>
      </Stack>
    </Card>
  );
}
