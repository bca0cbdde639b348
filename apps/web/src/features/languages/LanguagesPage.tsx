import { type PbxLanguage, pbxLanguages } from '@centralino/contract';
import { Button, Card, Center, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/endpoints.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteFieldset } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';

const PATH = '/admin/languages';

export function LanguagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const languages = useQuery({ queryKey: ['languages'], queryFn: api.languages });
  const [choice, setChoice] = useState<PbxLanguage | null>(null);

  const current = Object.entries(languages.data ?? {}).find(([, v]) => v.default)?.[0] as PbxLanguage | undefined;
  const selected = choice ?? current ?? null;

  const save = useMutation({
    mutationFn: async (lang: PbxLanguage) => {
      if (!languages.data?.[lang]) await api.installLanguage({ lang });
      await api.setDefaultLanguage({ lang });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['languages'] });
      setChoice(null);
      notifySuccess(t('languages.saved'));
    },
    onError: (error) => notifyError(t('languages.error'), error),
  });

  if (!languages.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }

  const options = pbxLanguages.map((lang) => ({
    value: lang,
    label: languages.data[lang]
      ? `${t(`languages.names.${lang}`)} (${t('languages.installed')})`
      : t(`languages.names.${lang}`),
  }));

  const body = (
    <Card withBorder radius="md" maw={560}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('languages.description')}
        </Text>
        <Text data-testid="current-language">
          {t('languages.current', { language: current ? t(`languages.names.${current}`) : '—' })}
        </Text>
        <WriteFieldset>
          <Stack gap="md">
            <Select
              label={t('languages.select')}
              data={options}
              value={selected}
              onChange={(value) => setChoice(value as PbxLanguage | null)}
              allowDeselect={false}
            />
            <Group justify="flex-end">
              <Button
                onClick={() => selected && save.mutate(selected)}
                loading={save.isPending}
                disabled={!selected || selected === current}
              >
                {t('languages.save')}
              </Button>
            </Group>
          </Stack>
        </WriteFieldset>
      </Stack>
    </Card>
  );

  return (
    <StepScreen path={PATH} title={t('languages.title')} canAdvance={current !== undefined}>
      {body}
    </StepScreen>
  );
}
