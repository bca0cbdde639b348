import { looksLikeJsonFile } from '@centralino/contract';
import { Alert, Anchor, Card, FileButton, Group, List, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { appsApi } from './appsApi.ts';

/** The provider's pages an installer needs to make the key (spec: links to the provider's pages). */
const GOOGLE_LINKS = [
  ['enableApi', 'https://console.cloud.google.com/apis/library/speech.googleapis.com'],
  ['serviceAccounts', 'https://console.cloud.google.com/iam-admin/serviceaccounts'],
  ['docs', 'https://cloud.google.com/speech-to-text/docs'],
  ['pricing', 'https://cloud.google.com/speech-to-text/pricing'],
] as const;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Speech to text: the service-account key and the voicemail transcription switch (contract api-core §17). */
function SpeechToText() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const exists = useQuery({ queryKey: ['apps', 'googleauth'], queryFn: appsApi.googleAuthExists });
  const stt = useQuery({ queryKey: ['apps', 'stt'], queryFn: appsApi.voicemailStt, enabled: exists.data === true });
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => appsApi.uploadGoogleAuth(await readAsDataUrl(file)),
    onSuccess: () => {
      setFileError(null);
      notifySuccess(t('apps.cloud.uploaded'));
      void queryClient.invalidateQueries({ queryKey: ['apps', 'googleauth'] });
    },
    onError: (e) => setFileError(e instanceof ApiError ? e.body.detail : e.message),
  });
  const toggle = useMutation({
    mutationFn: (on: boolean) => appsApi.setVoicemailStt(on ? 'enabled' : 'disabled'),
    // Shown as saved at once; a failure leaves the switch as the server has it.
    onSuccess: (_data, on) => queryClient.setQueryData(['apps', 'stt'], on ? 'enabled' : 'disabled'),
    onError: (e) => notifyError(t('apps.cloud.switchFailed'), e),
  });
  const pick = (file: File | null) => {
    if (!file) return;
    if (!looksLikeJsonFile(file.name, file.type)) {
      setFileError(t('apps.cloud.notJson'));
      return;
    }
    setFileError(null);
    upload.mutate(file);
  };
  const uploadButton = (label: string, variant: 'filled' | 'subtle') => (
    <FileButton onChange={pick} accept="application/json,.json">
      {(props) => (
        <WriteButton {...props} variant={variant} leftSection={<IconUpload size={16} />} loading={upload.isPending}>
          {label}
        </WriteButton>
      )}
    </FileButton>
  );
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="stt-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="stt-title">
          {t('apps.cloud.stt.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('apps.cloud.stt.intro')}
        </Text>
        <List size="sm" aria-label={t('apps.cloud.links.title')}>
          {GOOGLE_LINKS.map(([key, href]) => (
            <List.Item key={key}>
              <Anchor href={href} target="_blank" rel="noopener noreferrer">
                {t(`apps.cloud.links.${key}`)}
              </Anchor>
            </List.Item>
          ))}
        </List>
        {exists.isPending ? (
          <Loader size="sm" aria-label={t('app.loading')} />
        ) : exists.data ? (
          <Group gap="xs" data-testid="googleauth-present">
            {uploadButton(t('apps.cloud.replace'), 'subtle')}
          </Group>
        ) : (
          <Group>{uploadButton(t('apps.cloud.upload'), 'filled')}</Group>
        )}
        {fileError && (
          <Alert color="red" title={t('apps.cloud.notUploaded')} role="alert">
            {fileError}
          </Alert>
        )}
        {exists.data && (
          <WriteFieldset>
            <Switch
              label={t('apps.cloud.stt.switch')}
              description={t('apps.cloud.stt.switchHelp')}
              disabled={stt.isPending || toggle.isPending}
              checked={(toggle.isPending ? toggle.variables : stt.data === 'enabled') ?? false}
              onChange={(e) => toggle.mutate(e.currentTarget.checked)}
            />
          </WriteFieldset>
        )}
      </Stack>
    </Card>
  );
}

/** /apps/cloudServices: cloud speech (voicemail transcription); text to speech is not available yet. */
export function CloudServicesPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" maw={900}>
      <Title order={1} size="h2">
        {t('apps.cloud.title')}
      </Title>
      <SpeechToText />
      <Card withBorder radius="md" p="lg" component="section" aria-labelledby="tts-title">
        <Stack gap="xs">
          <Title order={2} size="h3" id="tts-title">
            {t('apps.cloud.tts.title')}
          </Title>
          <Text size="sm">{t('apps.cloud.tts.notAvailable')}</Text>
        </Stack>
      </Card>
    </Stack>
  );
}
