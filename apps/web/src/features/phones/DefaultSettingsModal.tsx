import {
  PHONE_LANGUAGES_OFFERED,
  PROVISIONING_FREQUENCIES,
  TONE_ZONES_OFFERED,
  URL_SCHEMES,
} from '@centralino/contract';
import {
  Accordion,
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Select,
  Stack,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { phonesApi } from './phonesApi.ts';

/** Variables the modal edits, in the order they are shown. */
const FIELDS = [
  'adminpw',
  'userpw',
  'provisioning_url_scheme',
  'language',
  'timezone',
  'tonezone',
  'provisioning_freq',
  'ntp_server',
] as const;
type Field = (typeof FIELDS)[number];

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** Keeps a stored value that is not among the offered ones selectable. */
function withCurrent(values: readonly string[], current: string | undefined): string[] {
  return current && !values.includes(current) ? [...values, current] : [...values];
}

function DefaultsForm({ loaded, onClose }: { loaded: Record<string, string>; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>(
    () => Object.fromEntries(FIELDS.map((f) => [f, loaded[f] ?? ''])) as Record<Field, string>,
  );
  const set = (field: Field) => (value: string | null) => setValues((v) => ({ ...v, [field]: value ?? '' }));
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, string | null> = { ui_first_config: '' };
      for (const field of FIELDS) if (values[field] !== (loaded[field] ?? '')) body[field] = values[field];
      return phonesApi.saveDefaults(body);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['phone-defaults'] });
      notifySuccess(t('phones.defaults.saved'));
      onClose();
    },
    onError: (e) => notifyError(t('phones.defaults.saveFailed'), e),
  });
  const select = (field: Field, options: readonly string[], label: (value: string) => string, searchable = false) => (
    <Select
      label={t(`phones.defaults.fields.${field}`)}
      data={withCurrent(options, loaded[field]).map((value) => ({ value, label: label(value) }))}
      value={values[field] || null}
      onChange={set(field)}
      searchable={searchable}
      allowDeselect={false}
    />
  );
  return (
    <Stack gap="md">
      <Alert color="blue">{t('phones.defaults.info')}</Alert>
      <PasswordInput
        label={t('phones.defaults.fields.adminpw')}
        value={values.adminpw}
        onChange={(e) => set('adminpw')(e.currentTarget.value)}
      />
      {values.adminpw !== (loaded.adminpw ?? '') && (
        <Alert color="yellow" data-testid="adminpw-warning">
          {t('phones.defaults.adminpwChanged')}
        </Alert>
      )}
      <PasswordInput
        label={t('phones.defaults.fields.userpw')}
        value={values.userpw}
        onChange={(e) => set('userpw')(e.currentTarget.value)}
      />
      <Accordion variant="separated" multiple>
        <Accordion.Item value="preferences">
          <Accordion.Control>{t('phones.defaults.sections.preferences')}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap="sm">
              {select('language', PHONE_LANGUAGES_OFFERED, (v) =>
                t(`phones.defaults.languages.${v}`, { defaultValue: v }),
              )}
              {select('timezone', timeZones(), (v) => v, true)}
              {select('tonezone', TONE_ZONES_OFFERED, (v) => v.toUpperCase())}
              {select('provisioning_freq', PROVISIONING_FREQUENCIES, (v) =>
                t(`phones.defaults.frequencies.${v}`, { defaultValue: v }),
              )}
              <TextInput
                label={t('phones.defaults.fields.ntp_server')}
                value={values.ntp_server}
                onChange={(e) => set('ntp_server')(e.currentTarget.value)}
              />
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value="provisioning">
          <Accordion.Control>{t('phones.defaults.sections.provisioning')}</Accordion.Control>
          <Accordion.Panel>
            {select('provisioning_url_scheme', URL_SCHEMES, (v) =>
              t(`phones.defaults.schemes.${v}`, { defaultValue: v }),
            )}
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button loading={save.isPending} onClick={() => save.mutate()}>
          {t('phones.defaults.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Default settings' of every phone: passwords, language, time, provisioning. */
export function DefaultSettingsModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const defaults = useQuery({ queryKey: ['phone-defaults'], queryFn: phonesApi.defaults });
  return (
    <Modal opened onClose={onClose} title={t('phones.defaults.title')} size="lg">
      {defaults.data ? (
        <DefaultsForm loaded={defaults.data} onClose={onClose} />
      ) : (
        <Center p="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      )}
    </Modal>
  );
}
