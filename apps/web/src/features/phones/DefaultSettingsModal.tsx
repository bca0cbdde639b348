import {
  DEFAULTS_LOADING_MS,
  LDAP_TLS_MODES,
  networkListProblem,
  PHONE_LANGUAGES_OFFERED,
  type PhonebookLdap,
  PROVISIONING_FREQUENCIES,
  TONE_ZONES_OFFERED,
  URL_SCHEMES,
} from '@centralino/contract';
import {
  Accordion,
  Alert,
  Button,
  Center,
  Code,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import {
  type DefaultsField,
  type DefaultsValues,
  defaultsPatch,
  initialDefaults,
  isSystemPhonebook,
  LDAP_FIELDS,
  PHONEBOOK_TYPES,
  type PhonebookType,
  systemPhonebookValues,
} from './defaults.ts';
import { ListSelect } from './ListSelect.tsx';
import { phonesApi } from './phonesApi.ts';

/** How long the ok icon shows before the modal closes, and the error icon before it clears. */
const CLOSE_AFTER_MS = 1000;
const ERROR_ICON_MS = 2500;
/** Typing the PBX address re-runs the connectivity check once the typing pauses. */
const CHECK_DEBOUNCE_MS = 400;

/** A URL inside a sentence: it may break anywhere (it has no words), the sentence around it only between words. */
const URL_PARTS = { url: <Code style={{ overflowWrap: 'anywhere' }} /> };

type SaveStatus = 'idle' | 'saving' | 'ok' | 'error';
type Section = 'preferences' | 'phonebook';

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** Keeps a stored value that is not among the offered ones selectable. */
function withCurrent(values: readonly string[], current: string | undefined): string[] {
  return current && !values.includes(current) ? [...values, current] : [...values];
}

function SaveStatusIcon({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  if (status === 'saving') return <Loader size="sm" aria-label={t('common.saving')} data-testid="save-status" />;
  if (status === 'ok') {
    return (
      <ThemeIcon
        color="teal"
        variant="light"
        radius="xl"
        role="img"
        aria-label={t('phones.defaults.statusOk')}
        data-testid="save-status"
      >
        <IconCheck size={16} />
      </ThemeIcon>
    );
  }
  if (status === 'error') {
    return (
      <ThemeIcon
        color="red"
        variant="light"
        radius="xl"
        role="img"
        aria-label={t('phones.defaults.statusError')}
        data-testid="save-status"
      >
        <IconX size={16} />
      </ThemeIcon>
    );
  }
  return null;
}

function DefaultsForm({
  loaded,
  phonebook,
  onModelsPage,
  onClose,
  onSaved,
}: {
  loaded: Record<string, string>;
  phonebook: PhonebookLdap | undefined;
  onModelsPage: boolean;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initial] = useState(() => initialDefaults(loaded, phonebook));
  const [values, setValues] = useState<DefaultsValues>(initial.values);
  const [phonebookType, setPhonebookType] = useState<PhonebookType>(initial.phonebookType);
  const [sections, setSections] = useState<string[]>([]);
  const [status, setStatus] = useState<SaveStatus>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const set = (field: DefaultsField) => (value: string | null) => setValues((v) => ({ ...v, [field]: value ?? '' }));
  const serverHost = phonebook?.ldaps.server ?? '';

  // The check follows the address and scheme being edited, and tries the very URL phones would be given
  // (an empty address is this server's own, checked too). The server checks again on save.
  const host = values.hostname.trim();
  const scheme = values.provisioning_url_scheme === 'http' ? 'http' : 'https';
  const [target] = useDebouncedValue(`${scheme} ${host}`, CHECK_DEBOUNCE_MS);
  const targetScheme = target.startsWith('http ') ? 'http' : 'https';
  const targetHost = target.slice(target.indexOf(' ') + 1);
  const check = useQuery({
    queryKey: ['connectivity-check', targetScheme, targetHost],
    queryFn: () => phonesApi.connectivityCheck(targetHost, targetScheme),
    retry: false,
    gcTime: 0,
  });
  const settled = target === `${scheme} ${host}`;
  const checking = !settled || check.isFetching;
  const unreachable = !checking && (check.data?.is_reachable === false || check.isError);
  const invalidCertificate =
    !checking && scheme === 'https' && check.data?.is_reachable === true && !check.data.valid_certificate;

  // Checked with the schema the server applies on save.
  const networksProblem = networkListProblem(values.provisioning_tokenless_networks);
  const systemService = isSystemPhonebook(phonebookType) ? phonebook?.[phonebookType] : undefined;
  const save = useMutation({
    mutationFn: async () => {
      if (values.adminpw && values.adminpw !== (loaded.adminpw ?? '')) {
        // The PBX keeps the phones' web password to drive them; a failure here must not stop the save.
        await phonesApi.setPhonesWebPassword(values.adminpw).catch((e: unknown) => console.error(e));
      }
      await phonesApi.saveDefaults(defaultsPatch(loaded, values, phonebookType !== initial.phonebookType));
      // Phones are about to look the phonebook up there: a switched-off service is switched on.
      if (isSystemPhonebook(phonebookType) && systemService && systemService.status !== 'running') {
        try {
          await phonesApi.startPhonebook(phonebookType);
        } catch (error) {
          notifyError(t('phones.defaults.phonebookStartFailed'), error);
        }
      }
    },
    onMutate: () => {
      clearTimeout(timer.current);
      setStatus('saving');
    },
    onSuccess: async () => {
      setStatus('ok');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['phone-defaults'] }),
        queryClient.invalidateQueries({ queryKey: ['phonebook-ldap'] }),
      ]);
      notifySuccess(t('phones.defaults.saved'));
      onSaved?.();
      timer.current = setTimeout(onClose, CLOSE_AFTER_MS);
    },
    onError: (e) => {
      setStatus('error');
      notifyError(t('phones.defaults.saveFailed'), e);
      timer.current = setTimeout(() => setStatus('idle'), ERROR_ICON_MS);
    },
  });

  const toggle = { 'aria-label': t('phones.defaults.togglePassword') };
  const select = (field: DefaultsField, options: readonly string[], label: (value: string) => string) => (
    <ListSelect
      label={t(`phones.defaults.fields.${field}`)}
      data={withCurrent(options, loaded[field]).map((value) => ({ value, label: label(value) }))}
      value={values[field] || null}
      onChange={set(field)}
    />
  );

  const choosePhonebook = (type: PhonebookType) => {
    setPhonebookType(type);
    const service = isSystemPhonebook(type) ? phonebook?.[type] : undefined;
    if (service) setValues((v) => ({ ...v, ...systemPhonebookValues(service) }));
  };
  const ldapDisabled = isSystemPhonebook(phonebookType);
  const tlsBlacklist = (loaded.cap_ldap_tls_blacklist ?? '').split(',').map((v) => v.trim());
  const ldapField = (field: (typeof LDAP_FIELDS)[number]): ReactNode => {
    const label = t(`phones.defaults.fields.${field}`);
    const common = { label, value: values[field], disabled: ldapDisabled };
    if (field === 'ldap_tls') {
      const modes = LDAP_TLS_MODES.filter((mode) => !tlsBlacklist.includes(mode) || mode === values.ldap_tls);
      return (
        <ListSelect
          key={field}
          {...common}
          value={values.ldap_tls || null}
          data={modes.map((mode) => ({ value: mode, label: t(`phones.defaults.tls.${mode}`) }))}
          onChange={set(field)}
        />
      );
    }
    if (field === 'ldap_password') {
      return (
        <PasswordInput
          key={field}
          {...common}
          visibilityToggleButtonProps={toggle}
          onChange={(e) => set(field)(e.currentTarget.value)}
        />
      );
    }
    return (
      <TextInput
        key={field}
        {...common}
        placeholder={field === 'ldap_server' ? host || serverHost : undefined}
        onChange={(e) => set(field)(e.currentTarget.value)}
      />
    );
  };

  const phonebookTypes = PHONEBOOK_TYPES.filter((type) => !isSystemPhonebook(type) || phonebook);
  return (
    <Stack gap="md">
      {!onModelsPage && (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {t('phones.defaults.info')}
        </Alert>
      )}
      <PasswordInput
        label={t('phones.defaults.fields.adminpw')}
        value={values.adminpw}
        visibilityToggleButtonProps={toggle}
        onChange={(e) => set('adminpw')(e.currentTarget.value)}
      />
      {values.adminpw !== (loaded.adminpw ?? '') && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="adminpw-warning">
          {t('phones.defaults.adminpwChanged')}
        </Alert>
      )}
      <PasswordInput
        label={t('phones.defaults.fields.userpw')}
        value={values.userpw}
        visibilityToggleButtonProps={toggle}
        onChange={(e) => set('userpw')(e.currentTarget.value)}
      />
      <TextInput
        label={t('phones.defaults.fields.hostname')}
        description={t('phones.defaults.hostnameHint')}
        styles={{ description: { color: 'var(--mantine-color-text)' } }}
        placeholder={serverHost}
        value={values.hostname}
        onChange={(e) => set('hostname')(e.currentTarget.value)}
        rightSection={checking ? <Loader size="xs" aria-label={t('phones.defaults.checking')} /> : undefined}
      />
      {select('provisioning_url_scheme', URL_SCHEMES, (v) => t(`phones.defaults.schemes.${v}`, { defaultValue: v }))}
      {!checking && check.data?.is_reachable && !invalidCertificate && (
        <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="connectivity-ok">
          <IconCheck size={16} color="var(--mantine-color-teal-6)" style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm">
            {t('phones.defaults.reachable')}{' '}
            <Trans
              i18nKey="phones.defaults.reachableAt"
              values={{ url: check.data.provisioning_url, tried: check.data.url }}
              components={URL_PARTS}
            />
          </Text>
        </Group>
      )}
      {!checking && check.data?.https_unavailable && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="https-unavailable-warning">
          {t('phones.defaults.httpsUnavailable', { url: check.data.provisioning_url })}
        </Alert>
      )}
      {unreachable && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={t('phones.defaults.unreachableTitle')}
          data-testid="unreachable-warning"
        >
          <Stack gap={4}>
            <Text size="sm" data-testid="unreachable-advice">
              {check.data?.failure === 'loopback'
                ? t(serverHost ? 'phones.defaults.loopbackServer' : 'phones.defaults.loopback', {
                    host: new URL(check.data.url).hostname,
                    server: serverHost,
                  })
                : t('phones.defaults.unreachable')}
            </Text>
            {check.data && (
              <Text size="sm" data-testid="unreachable-url">
                <Trans
                  i18nKey="phones.defaults.triedUrl"
                  values={{
                    url: check.data.url,
                    provisioningUrl: check.data.provisioning_url,
                    reason: t(`phones.defaults.failures.${check.data.failure ?? 'error'}`),
                  }}
                  components={URL_PARTS}
                />
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {invalidCertificate && (
        <Alert
          color="yellow"
          icon={<IconAlertTriangle size={18} />}
          title={t('phones.defaults.certificateTitle')}
          data-testid="certificate-warning"
        >
          {t('phones.defaults.certificate')}
        </Alert>
      )}
      <TextInput
        label={t('phones.defaults.fields.provisioning_tokenless_networks')}
        description={t('phones.defaults.tokenlessNetworksHint')}
        styles={{ description: { color: 'var(--mantine-color-text)' } }}
        placeholder="192.168.1.0/24, 2001:db8::/64"
        value={values.provisioning_tokenless_networks}
        onChange={(e) => set('provisioning_tokenless_networks')(e.currentTarget.value)}
        error={
          networksProblem &&
          ('tooMany' in networksProblem
            ? t('phones.defaults.tokenlessNetworksTooMany')
            : t('phones.defaults.tokenlessNetworksInvalid', { entry: networksProblem.entry }))
        }
      />
      <Accordion variant="separated" multiple value={sections} onChange={setSections}>
        <Accordion.Item value={'preferences' satisfies Section}>
          <Accordion.Control>{t('phones.defaults.sections.preferences')}</Accordion.Control>
          <Accordion.Panel>
            {/* Sections build their fields (and long option lists) only once opened. */}
            {sections.includes('preferences') && (
              <Stack gap="sm">
                {select('language', PHONE_LANGUAGES_OFFERED, (v) =>
                  t(`phones.defaults.languages.${v}`, { defaultValue: v }),
                )}
                {select('provisioning_freq', PROVISIONING_FREQUENCIES, (v) =>
                  t(`phones.defaults.frequencies.${v}`, { defaultValue: v }),
                )}
                {select('tonezone', TONE_ZONES_OFFERED, (v) => v.toUpperCase())}
                {select('timezone', timeZones(), (v) => v)}
                <TextInput
                  label={t('phones.defaults.fields.ntp_server')}
                  value={values.ntp_server}
                  onChange={(e) => set('ntp_server')(e.currentTarget.value)}
                />
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
        <Accordion.Item value={'phonebook' satisfies Section}>
          <Accordion.Control>{t('phones.defaults.sections.phonebook')}</Accordion.Control>
          <Accordion.Panel>
            {sections.includes('phonebook') && (
              <Stack gap="sm">
                <Select
                  label={t('phones.defaults.phonebookType')}
                  data={phonebookTypes.map((type) => ({
                    value: type,
                    label: t(`phones.defaults.phonebookTypes.${type}`),
                  }))}
                  value={phonebookType}
                  onChange={(value) => value && choosePhonebook(value as PhonebookType)}
                  allowDeselect={false}
                />
                {systemService && !systemService.enabled && (
                  <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="phonebook-disabled">
                    {t('phones.defaults.phonebookDisabled')}
                  </Alert>
                )}
                {systemService?.enabled && systemService.status === 'failed' && (
                  <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="phonebook-failed">
                    {t('phones.defaults.phonebookFailed', { error: systemService.error ?? '' })}
                  </Alert>
                )}
                {systemService?.status === 'running' && (
                  <Text size="sm" c="dimmed" data-testid="phonebook-running">
                    {t('phones.defaults.phonebookRunning', { port: systemService.port })}
                  </Text>
                )}
                {LDAP_FIELDS.map(ldapField)}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Group justify="flex-end">
        <SaveStatusIcon status={status} />
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          disabled={unreachable || checking || !!networksProblem || status === 'saving' || status === 'ok'}
          onClick={() => save.mutate()}
        >
          {t('phones.defaults.save')}
        </Button>
      </Group>
    </Stack>
  );
}

export interface DefaultSettingsModalProps {
  onClose: () => void;
  /** On the Models page the banner pointing to it is left out. */
  onModelsPage?: boolean;
  /** After a successful save, before the modal closes. */
  onSaved?: () => void;
}

/** 'Default settings' of every phone: passwords, PBX address and encryption, preferences, phonebook. */
export function DefaultSettingsModal({ onClose, onModelsPage = false, onSaved }: DefaultSettingsModalProps) {
  const { t } = useTranslation();
  const defaults = useQuery({ queryKey: ['phone-defaults'], queryFn: phonesApi.defaults });
  // Without the phonebook services the modal still works; only the system phonebook choices go.
  const phonebook = useQuery({ queryKey: ['phonebook-ldap'], queryFn: phonesApi.phonebookLdap, retry: false });
  // The indicator stays at least DEFAULTS_LOADING_MS, so the form never flashes in and re-lays out.
  const [minimumShown, setMinimumShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setMinimumShown(true), DEFAULTS_LOADING_MS);
    return () => clearTimeout(timer);
  }, []);
  const ready = minimumShown && defaults.data && (phonebook.isSuccess || phonebook.isError);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('phones.defaults.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {ready ? (
        <DefaultsForm
          loaded={defaults.data}
          phonebook={phonebook.data}
          onModelsPage={onModelsPage}
          onClose={onClose}
          onSaved={onSaved}
        />
      ) : (
        <Center p="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      )}
    </Modal>
  );
}
