import { Alert, Group, List, Stack, Text } from '@mantine/core';
import { IconFiles, IconLock, IconNetwork, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WriteButton } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { DefaultSettingsModal } from './DefaultSettingsModal.tsx';
import { FileUploadModal } from './FileUploadModal.tsx';
import { phonesApi } from './phonesApi.ts';

/** Devices landing: private vs public networks, and the way to the phones' default settings. */
export function DevicesPage() {
  const { t } = useTranslation();
  const defaults = useQuery({ queryKey: ['phone-defaults'], queryFn: phonesApi.defaults });
  const [editing, setEditing] = useState(false);
  const [managingFiles, setManagingFiles] = useState(false);
  const firstConfig = defaults.data?.ui_first_config === '1';
  return (
    <StepScreen path="/devices" title={t('wizard.steps.devices')} canAdvance={!!defaults.data && !firstConfig}>
      <Stack gap="md">
        <Text>{t('phones.landing.intro')}</Text>
        <Alert color="gray" icon={<IconNetwork size={18} />} title={t('phones.landing.privateTitle')}>
          {t('phones.landing.private')}
        </Alert>
        <Alert color="gray" icon={<IconLock size={18} />} title={t('phones.landing.publicTitle')}>
          <List size="sm">
            <List.Item>{t('phones.landing.publicEncryption')}</List.Item>
            <List.Item>{t('phones.landing.publicFqdn')}</List.Item>
            <List.Item>{t('phones.landing.publicCertificate')}</List.Item>
          </List>
        </Alert>
        {firstConfig && <Text c="dimmed">{t('phones.landing.firstConfig')}</Text>}
        <Group>
          <WriteButton
            color={firstConfig ? 'yellow' : undefined}
            leftSection={<IconSettings size={16} />}
            disabled={!defaults.data}
            onClick={() => setEditing(true)}
          >
            {t('phones.landing.edit')}
          </WriteButton>
          <WriteButton variant="default" leftSection={<IconFiles size={16} />} onClick={() => setManagingFiles(true)}>
            {t('phones.landing.files')}
          </WriteButton>
        </Group>
        {editing && <DefaultSettingsModal onClose={() => setEditing(false)} />}
        <FileUploadModal opened={managingFiles} onClose={() => setManagingFiles(false)} />
      </Stack>
    </StepScreen>
  );
}
