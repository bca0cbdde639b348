import {
  PHONE_LANGUAGES_OFFERED,
  PROVISIONING_FREQUENCIES,
  TIME_FORMATS,
  TONE_ZONES_OFFERED,
} from '@centralino/contract';
import { Select, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LDAP_CONNECTION_FIELDS, LDAP_SEARCH_FIELDS } from '../phones/defaults.ts';
import { LEVELS, type ModelCapabilities } from './capabilities.ts';
import { PasswordField, SelectField, TextField, UploadField, useEditor } from './fields.tsx';
import { listValue, textValue } from './modelState.ts';

function useTimeoutLabel() {
  const { t } = useTranslation();
  return (seconds: string, zero: string) => {
    const n = Number(seconds);
    if (n === 0) return zero;
    if (n < 60) return t('models.timeouts.seconds', { count: n });
    if (n < 3600) return t('models.timeouts.minutes', { count: n / 60 });
    return t('models.timeouts.hours', { count: n / 3600 });
  };
}

export function DisplaySection({ caps }: { caps: ModelCapabilities }) {
  const { t } = useTranslation();
  const { layers, edits } = useEditor();
  const timeout = useTimeoutLabel();
  const ringtoneLabel = (value: string) =>
    value === '-1' ? t('models.ringtoneCustom') : value === '0' ? t('models.ringtoneSilent') : value;
  // A ringtone file only plays when the ringtone is the custom one.
  const customRingtone = listValue('ringtone', layers, edits) === '-1';
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <SelectField
        variable="ringtone"
        label={t('models.fields.ringtone')}
        options={caps.ringtones.map((value) => ({ value, label: ringtoneLabel(value) }))}
      />
      <UploadField variable="ringtone_file" label={t('models.fields.ringtone_file')} disabled={!customRingtone} />
      {caps.backgroundFile && <UploadField variable="background_file" label={t('models.fields.background_file')} />}
      {caps.screensaverFile && <UploadField variable="screensaver_file" label={t('models.fields.screensaver_file')} />}
      {caps.backlightTimes.length > 0 && (
        <SelectField
          variable="backlight_time"
          label={t('models.fields.backlight_time')}
          options={caps.backlightTimes.map((value) => ({ value, label: timeout(value, t('models.alwaysOn')) }))}
        />
      )}
      {caps.screensaverTimes.length > 0 && (
        <SelectField
          variable="screensaver_time"
          label={t('models.fields.screensaver_time')}
          options={caps.screensaverTimes.map((value) => ({ value, label: timeout(value, t('models.disabled')) }))}
        />
      )}
      {caps.contrast && (
        <SelectField
          variable="contrast"
          label={t('models.fields.contrast')}
          options={LEVELS.map((value) => ({ value, label: value }))}
        />
      )}
      {caps.brightness && (
        <SelectField
          variable="brightness"
          label={t('models.fields.brightness')}
          options={LEVELS.map((value) => ({ value, label: value }))}
        />
      )}
    </SimpleGrid>
  );
}

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

export function PreferencesSection({ caps }: { caps: ModelCapabilities }) {
  const { t } = useTranslation();
  const options = (values: readonly string[], prefix: string) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`, { defaultValue: value }) }));
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextField variable="ntp_server" label={t('models.fields.ntp_server')} />
      <SelectField
        variable="provisioning_freq"
        label={t('models.fields.provisioning_freq')}
        options={options(PROVISIONING_FREQUENCIES, 'models.frequencies')}
      />
      <SelectField
        variable="dss_transfer"
        label={t('models.fields.dss_transfer')}
        options={options(caps.dssTransfer, 'models.transferModes')}
      />
      <SelectField
        variable="language"
        label={t('models.fields.language')}
        options={options(PHONE_LANGUAGES_OFFERED, 'models.languages')}
      />
      <SelectField
        variable="timezone"
        label={t('models.fields.timezone')}
        options={timeZones().map((value) => ({ value, label: value }))}
        big
      />
      <SelectField
        variable="tonezone"
        label={t('models.fields.tonezone')}
        options={options(TONE_ZONES_OFFERED, 'models.toneZones')}
      />
      <SelectField
        variable="time_format"
        label={t('models.fields.time_format')}
        options={options(TIME_FORMATS, 'models.timeFormats')}
      />
      <SelectField
        variable="date_format"
        label={t('models.fields.date_format')}
        options={caps.dateFormats.map((value) => ({ value, label: value }))}
      />
      <UploadField variable="firmware_file" label={t('models.fields.firmware_file')} />
    </SimpleGrid>
  );
}

export function PhonebookSection({ caps }: { caps: ModelCapabilities }) {
  const { t } = useTranslation();
  const { layers, edits, set } = useEditor();
  // 'System' = the connection settings are the defaults' (the PBX's own phone book); 'custom' = the model's own.
  const custom = LDAP_CONNECTION_FIELDS.some((key) => textValue(key, layers, edits) !== '');
  const choose = (type: string | null) => {
    if (type === 'system') for (const key of LDAP_CONNECTION_FIELDS) set(key, '', 'text');
    else if (type === 'custom' && !custom) {
      // Start from what applies today, so the administrator changes only what differs.
      for (const key of LDAP_CONNECTION_FIELDS)
        set(key, listValue(key, layers) || layers.globals.hostname || '', 'text');
    }
  };
  return (
    <Stack gap="sm">
      <Select
        label={t('models.phonebookType')}
        data={[
          { value: 'system', label: t('models.phonebookTypes.system') },
          { value: 'custom', label: t('models.phonebookTypes.custom') },
        ]}
        value={custom ? 'custom' : 'system'}
        onChange={choose}
        allowDeselect={false}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextField variable="ldap_server" label={t('models.fields.ldap_server')} disabled={!custom} />
        <TextField variable="ldap_port" label={t('models.fields.ldap_port')} disabled={!custom} />
        <TextField variable="ldap_user" label={t('models.fields.ldap_user')} disabled={!custom} />
        <PasswordField variable="ldap_password" label={t('models.fields.ldap_password')} disabled={!custom} />
        <SelectField
          variable="ldap_tls"
          label={t('models.fields.ldap_tls')}
          options={caps.ldapTls.map((value) => ({ value, label: t(`models.tlsModes.${value}`) }))}
          disabled={!custom}
        />
        <TextField variable="ldap_base" label={t('models.fields.ldap_base')} disabled={!custom} />
        {LDAP_SEARCH_FIELDS.map((key) => (
          <TextField key={key} variable={key} label={t(`models.fields.${key}`)} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** VLAN ids: empty or 0 means no VLAN; phones accept 1–4094. */
export function vlanError(value: string): boolean {
  return value !== '' && (!/^\d{1,4}$/.test(value) || Number(value) > 4094);
}

export function NetworkSection() {
  const { t } = useTranslation();
  const { layers, edits } = useEditor();
  const field = (variable: string) => (
    <TextField
      variable={variable}
      label={t(`models.fields.${variable}`)}
      error={vlanError(textValue(variable, layers, edits)) ? t('models.vlanInvalid') : undefined}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {field('vlan_id_phone')}
      {field('vlan_id_pcport')}
    </SimpleGrid>
  );
}
