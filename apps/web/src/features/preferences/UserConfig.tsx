import { MAX_DEVICES_PER_USER, NO_EXTENSION, type User, type UserDevice } from '@centralino/contract';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconInfoCircle, IconLink, IconRefresh, IconUnlink, IconX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useCanWrite } from '../../app/auth.tsx';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { CallSettingsSummary } from '../bulk-extensions/CallSettingsSummary.tsx';
import { deviceConfigApi } from '../phones/deviceConfigApi.ts';
import { displayMac, type ModelSummary, modelDisplayName, phoneLabel } from '../phones/macs.ts';
import { CopyableUrl } from '../phones/PhoneInfoModal.tsx';
import { errorText, phonesApi } from '../phones/phonesApi.ts';
import { preferencesApi } from './preferencesApi.ts';
import { SaveSwitch } from './SaveSwitch.tsx';

const CUSTOM = 'custom';

function deviceKind(d: UserDevice): string {
  if (d.type === 'physical' && d.mac === null) return 'custom';
  return d.type;
}

/** Everything needed to set up a device by hand, or what a provisioned phone uses. */
function DeviceInfo({ device, onClose }: { device: UserDevice; onClose: () => void }) {
  const { t } = useTranslation();
  const encrypted = device.srtp === '1';
  const engine = useQuery({
    queryKey: ['provisioning-phone', device.mac],
    queryFn: () => preferencesApi.provisioningPhone(device.mac as string),
    enabled: device.mac !== null,
  });
  const models = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models, retry: false });
  // A read-only account is shown no credential: not the secret, nor the provisioning addresses (their tokens
  // open the phone's file with its SIP password).
  const showsCredentials = useCanWrite();
  // The secret is read from its own call when the information opens, and never cached.
  const credentials = useQuery({
    queryKey: ['device-credentials', device.extension],
    queryFn: () => preferencesApi.credentials(device.extension as string),
    enabled: device.extension !== null && showsCredentials,
    gcTime: 0,
    staleTime: 0,
  });
  const secret = !showsCredentials
    ? t('readOnly.hidden')
    : credentials.isPending
      ? t('preferences.info.loadingSecret')
      : credentials.isError
        ? t('preferences.info.secretUnavailable')
        : (credentials.data?.secret ?? '');
  const rows: [string, string][] = [
    [t('preferences.info.server'), window.location.hostname],
    [t('preferences.info.port'), encrypted ? '5061' : '5060'],
    [t('preferences.info.transport'), encrypted ? 'TLS + SRTP' : 'UDP'],
    [t('preferences.info.username'), device.extension ?? ''],
    [t('preferences.info.secret'), secret],
  ];
  if (device.mac) {
    rows.push(
      [t('preferences.info.mac'), displayMac(device.mac)],
      [t('preferences.info.model'), modelDisplayName(models.data ?? [], device.model) ?? '—'],
    );
  }
  const urls: [string, string][] = [];
  if (engine.data?.provisioning_url1)
    urls.push([t('preferences.info.provisioningUrl1'), engine.data.provisioning_url1]);
  if (engine.data?.provisioning_url2)
    urls.push([t('preferences.info.provisioningUrl2'), engine.data.provisioning_url2]);
  return (
    <Modal opened onClose={onClose} title={t('preferences.info.title', { extension: device.extension })} size="lg">
      <Table>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={200}>{label}</Table.Th>
              <Table.Td>
                <Code>{value}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
          {urls.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={200}>{label}</Table.Th>
              <Table.Td>
                <CopyableUrl url={value} label={label} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {device.mac && engine.isError && (
        <Text size="sm" c="dimmed" mt="sm">
          {t('preferences.info.notInEngine')}
        </Text>
      )}
    </Modal>
  );
}

/**
 * Configure and reconfigure: a phone's configuration is prepared again (its model and account), then the
 * phone is asked to fetch it. Devices without a MAC (custom) have nothing to prepare.
 */
async function configureAndReconfigure(device: UserDevice): Promise<void> {
  if (device.mac) await deviceConfigApi.provision(device.mac);
  await preferencesApi.reconfigure(device.extension as string);
}

/** Asks a registered phone to fetch its configuration again: spinner, then a tick or a cross for 4 s. */
function ReconfigureButton({ device }: { device: UserDevice }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'busy' | 'ok' | 'error'>('idle');
  const run = async () => {
    setState('busy');
    try {
      await configureAndReconfigure(device);
      setState('ok');
    } catch (error) {
      setState('error');
      notifyError(t('preferences.configureFailed', { detail: errorText(error) }));
    }
    setTimeout(() => setState('idle'), 4000);
  };
  const icon =
    state === 'ok' ? (
      <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label={t('preferences.reconfigured')} />
    ) : state === 'error' ? (
      <IconX size={16} color="var(--mantine-color-red-6)" aria-label={t('preferences.notReconfigured')} />
    ) : (
      <IconRefresh size={16} />
    );
  return (
    <Tooltip label={device.registered ? t('preferences.reconfigure') : t('preferences.notRegisteredTooltip')}>
      <WriteButton
        variant="subtle"
        size="xs"
        disabled={!device.registered}
        loading={state === 'busy'}
        aria-label={t('preferences.reconfigureFor', { extension: device.extension })}
        onClick={() => void run()}
      >
        {icon}
      </WriteButton>
    </Tooltip>
  );
}

/** One user's CTI profile and groups, mobile, voicemail, softphones and devices. */
export function UserConfig({ user, onChanged }: { user: User; onChanged: () => void }) {
  const { t } = useTranslation();
  const main = user.default_extension;
  const configured = main !== NO_EXTENSION;
  const profiles = useQuery({ queryKey: ['cti', 'profiles'], queryFn: preferencesApi.profiles });
  const groups = useQuery({ queryKey: ['cti', 'groups'], queryFn: preferencesApi.groups });
  const userGroups = useQuery({
    queryKey: ['user-groups', user.id],
    queryFn: () => preferencesApi.userGroups(user.id),
  });
  const voicemail = useQuery({
    queryKey: ['voicemail', main],
    queryFn: () => preferencesApi.voicemail(main),
    enabled: configured,
  });
  // The PBX's phones with their links (GET /devices/phones/list): the picker offers those not linked yet.
  const inventory = useQuery({ queryKey: ['device-phones'], queryFn: deviceConfigApi.phones, enabled: configured });
  // Model display names, as the inventory shows them; without them the picker shows model names.
  const models = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models, retry: false });
  const [mobile, setMobile] = useState(user.mobile ?? '');
  const [profile, setProfile] = useState<string | null>(user.profile);
  const [chosen, setChosen] = useState<string | null>(null);
  const [info, setInfo] = useState<UserDevice | null>(null);

  const saveMobile = useMutation({
    mutationFn: () => preferencesApi.setMobile(user.username, mobile),
    onSuccess: () => {
      notifySuccess(t('preferences.mobileSaved'));
      onChanged();
    },
    onError: (e) => notifyError(t('preferences.mobileError'), e),
  });
  const link = useMutation({
    mutationFn: () => preferencesApi.link(main, chosen === CUSTOM ? null : chosen),
    onSuccess: () => {
      notifySuccess(t('preferences.linked'));
      setChosen(null);
      onChanged();
      void inventory.refetch();
    },
    onError: (e) =>
      notifyError(
        e instanceof ApiError && e.code === 'devices_limit' ? t('preferences.limit') : t('preferences.linkError'),
        e,
      ),
  });

  // Phones that can be asked to fetch their configuration again: registered ones.
  const reconfigurable = user.devices.filter(
    (d) => (d.type === 'physical' || d.type === 'temporaryphysical') && d.extension && d.registered,
  );
  const reconfigureAll = useMutation({
    mutationFn: async () => {
      const targets = reconfigurable;
      const results = await Promise.allSettled(targets.map((d) => configureAndReconfigure(d)));
      const failed = targets.filter((_, i) => results[i]?.status === 'rejected').map((d) => d.extension as string);
      return { done: targets.length - failed.length, failed };
    },
    onSuccess: ({ done, failed }) => {
      if (failed.length > 0) notifyError(t('preferences.reconfigureAllFailed', { list: failed.join(', ') }));
      if (done > 0) notifySuccess(t('preferences.reconfigureAllDone', { count: done }));
    },
  });

  if (!configured) {
    return (
      <Alert color="gray" title={t('preferences.noExtension')}>
        {t('preferences.noExtensionDetail')}
      </Alert>
    );
  }
  if (!profiles.data || !groups.data || !userGroups.data || voicemail.isPending) return <Loader size="sm" />;

  const softphone = (type: 'webrtc' | 'mobile' | 'nethlink') => user.devices.find((d) => d.type === type);
  const toggleSoftphone = (type: 'webrtc' | 'mobile' | 'nethlink') => async (on: boolean) => {
    const api = type === 'mobile' ? 'mobileapp' : type;
    if (on) await preferencesApi.enableDevice(api, main);
    else await preferencesApi.disableDevice(api, type === 'mobile' ? (softphone('mobile')?.extension ?? '') : main);
    onChanged();
  };
  const modelList: readonly ModelSummary[] = models.data ?? [];
  const free = (inventory.data ?? []).filter((p) => p.mac && !p.lines[0]?.extension);
  const atLimit = user.devices.length >= MAX_DEVICES_PER_USER;

  return (
    <Stack gap="md" data-testid={`config-${user.username}`}>
      <CallSettingsSummary extension={main} />
      <WriteFieldset>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Select
              label={t('preferences.profile')}
              data={profiles.data.map((p) => ({ value: String(p.id), label: p.name }))}
              value={profile}
              clearable
              onChange={async (value) => {
                const previous = profile;
                setProfile(value);
                try {
                  await preferencesApi.setUserProfile(user.id, value === null ? null : Number(value));
                  notifySuccess(t('preferences.profileSaved'));
                } catch (e) {
                  setProfile(previous);
                  notifyError(t('preferences.profileError'), e);
                }
              }}
            />
            <MultiSelect
              label={t('preferences.groups')}
              data={groups.data.map((g) => ({ value: String(g.id), label: g.name }))}
              defaultValue={userGroups.data.map(String)}
              onChange={async (values) => {
                try {
                  await preferencesApi.setUserGroups(user.id, values.map(Number));
                } catch (e) {
                  notifyError(t('preferences.groupsError'), e);
                  void userGroups.refetch();
                }
              }}
            />
            <Group align="end" gap="xs">
              <TextInput
                label={t('preferences.mobile')}
                value={mobile}
                onChange={(e) => setMobile(e.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button variant="default" loading={saveMobile.isPending} onClick={() => saveMobile.mutate()}>
                {t('preferences.set')}
              </Button>
            </Group>
          </SimpleGrid>
          <Group gap="xl">
            <SaveSwitch
              label={t('preferences.voicemail')}
              checked={voicemail.data !== null && voicemail.data !== undefined}
              onSave={async (on) => {
                await preferencesApi.setVoicemail(main, on);
                void voicemail.refetch();
              }}
            />
            <SaveSwitch
              label={t('preferences.webPhone')}
              checked={!!softphone('webrtc')}
              onSave={toggleSoftphone('webrtc')}
            />
            <SaveSwitch
              label={t('preferences.mobileApp')}
              checked={!!softphone('mobile')}
              onSave={toggleSoftphone('mobile')}
            />
            <SaveSwitch
              label={t('preferences.desktop')}
              checked={!!softphone('nethlink')}
              onSave={toggleSoftphone('nethlink')}
            />
          </Group>
        </Stack>
      </WriteFieldset>

      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{t('preferences.devices', { count: user.devices.length, max: MAX_DEVICES_PER_USER })}</Text>
          <Tooltip label={t('preferences.reconfigureAllNone')} disabled={reconfigurable.length > 0}>
            <WriteButton
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={14} />}
              disabled={reconfigurable.length === 0}
              loading={reconfigureAll.isPending}
              onClick={() => reconfigureAll.mutate()}
            >
              {t('preferences.reconfigureAll')}
            </WriteButton>
          </Tooltip>
        </Group>
        {user.devices.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('preferences.noDevices')}
          </Text>
        ) : (
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('preferences.type')}</Table.Th>
                <Table.Th>{t('preferences.extension')}</Table.Th>
                <Table.Th>{t('preferences.model')}</Table.Th>
                <Table.Th>{t('preferences.registration')}</Table.Th>
                <Table.Th>{t('preferences.encryption')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {user.devices.map((d) => {
                const kind = deviceKind(d);
                const physical = d.type === 'physical';
                return (
                  <Table.Tr key={d.id} data-testid={`device-${d.extension}`}>
                    <Table.Td>
                      <Badge variant="light">{t(`preferences.kinds.${kind}`)}</Badge>
                      {d.type === 'temporaryphysical' && d.mac === null && (
                        <Text size="xs" c="orange">
                          {t('preferences.temporaryWarning')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{d.extension}</Table.Td>
                    <Table.Td>
                      {modelDisplayName(modelList, d.model) ?? '—'}
                      {d.mac ? (
                        <Text size="xs" c="dimmed" ff="monospace">
                          {displayMac(d.mac)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={d.registered ? 'teal' : 'gray'}>
                        {d.registered ? t('preferences.registered') : t('preferences.notRegistered')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {physical && d.extension ? (
                        <WriteFieldset>
                          <SaveSwitch
                            label={d.srtp === '1' ? t('preferences.encrypted') : t('preferences.unencrypted')}
                            checked={d.srtp === '1'}
                            onSave={async (on) => {
                              await preferencesApi.setSrtp(d.extension as string, on);
                              onChanged();
                            }}
                          />
                        </WriteFieldset>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Tooltip label={t('preferences.info.open')}>
                          <Button
                            variant="subtle"
                            size="xs"
                            aria-label={t('preferences.info.openFor', { extension: d.extension })}
                            onClick={() => setInfo(d)}
                          >
                            <IconInfoCircle size={16} />
                          </Button>
                        </Tooltip>
                        {physical && d.extension && <ReconfigureButton device={d} />}
                        {(physical || d.type === 'temporaryphysical') && (
                          <WriteButton
                            variant="subtle"
                            color="red"
                            size="xs"
                            aria-label={t('preferences.unlinkFor', { extension: d.extension })}
                            onClick={async () => {
                              const ok = await confirmAction({
                                title: t('preferences.unlinkTitle'),
                                message: t('preferences.unlinkConfirm', { extension: d.extension }),
                                confirmLabel: t('preferences.unlink'),
                                danger: true,
                              });
                              if (!ok) return;
                              try {
                                await preferencesApi.unlink(d.extension as string);
                                onChanged();
                                void inventory.refetch();
                              } catch (e) {
                                notifyError(t('preferences.unlinkError'), e);
                              }
                            }}
                          >
                            <IconUnlink size={16} />
                          </WriteButton>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <WriteFieldset>
          <Group align="end" gap="xs">
            <Select
              label={t('preferences.linkDevice')}
              placeholder={t('preferences.chooseDevice')}
              searchable
              style={{ flex: 1 }}
              disabled={atLimit}
              data={[
                { value: CUSTOM, label: t('preferences.newCustom') },
                ...free.map((p) => ({
                  value: p.mac as string,
                  label: phoneLabel({ mac: p.mac as string, vendor: p.manufacturer, model: p.model }, modelList),
                })),
              ]}
              value={chosen}
              onChange={setChosen}
            />
            <Button
              leftSection={<IconLink size={16} />}
              disabled={!chosen || atLimit}
              loading={link.isPending}
              onClick={() => link.mutate()}
            >
              {t('preferences.link')}
            </Button>
          </Group>
        </WriteFieldset>
        {atLimit && (
          <Text size="sm" c="orange">
            {t('preferences.limit')}
          </Text>
        )}
      </Stack>
      {info && <DeviceInfo device={info} onClose={() => setInfo(null)} />}
    </Stack>
  );
}
