import { canonicalMac, type PhoneManufacturers, type ScannedDevice, vendorOfMac } from '@centralino/contract';
import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconDeviceDesktop, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { deviceConfigApi } from './deviceConfigApi.ts';
import { displayMac, type ModelSummary, modelDisplayName } from './macs.ts';
import { errorText, phonesApi } from './phonesApi.ts';
import { ScanNetwork } from './ScanNetwork.tsx';

const PATH = '/configurations/devices';

/** One phone of the screen: known to the PBX, seen by a scan of this visit, or both. */
export interface ConfigPhone {
  /** Colon form, as the PBX stores it. */
  mac: string;
  vendor: string;
  model: string | null;
  ipv4?: string;
  /** The user and extension it is linked to. */
  line?: { displayname: string | null; extension: string | null };
}

/**
 * The phones to show: the PBX's (with their links) and those a scan found, once each by MAC, the scan
 * adding the address; phones of vendors the PBX cannot configure are left out. Sorted by MAC.
 */
export function mergePhones(
  known: readonly { mac?: string; manufacturer: string; model: string | null; ipv4?: string; lines: ConfigLine[] }[],
  scanned: readonly ScannedDevice[],
): ConfigPhone[] {
  const byMac = new Map<string, ConfigPhone>();
  for (const item of known) {
    if (!item.mac) continue;
    const line = item.lines[0];
    byMac.set(item.mac, {
      mac: item.mac,
      vendor: item.manufacturer || vendorOfMac(item.mac) || '',
      model: item.model,
      ipv4: item.ipv4 || undefined,
      line: line?.extension ? { displayname: line.displayname, extension: line.extension } : undefined,
    });
  }
  for (const device of scanned) {
    const vendor = vendorOfMac(device.mac);
    if (!vendor || device.type === 'gateway') continue;
    const existing = byMac.get(device.mac);
    if (existing) existing.ipv4 = device.ipv4;
    else byMac.set(device.mac, { mac: device.mac, vendor, model: null, ipv4: device.ipv4 });
  }
  return [...byMac.values()].sort((a, b) => a.mac.localeCompare(b.mac));
}

type ConfigLine = { extension: string | null; displayname: string | null };

function modelData(manufacturers: PhoneManufacturers, models: readonly ModelSummary[], vendor: string) {
  return (manufacturers[vendor] ?? []).map((name) => ({ value: name, label: modelDisplayName(models, name) ?? name }));
}

function PhoneModelSelect({
  phone,
  manufacturers,
  models,
  onSaved,
}: {
  phone: ConfigPhone;
  manufacturers: PhoneManufacturers;
  models: readonly ModelSummary[];
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const mac = displayMac(phone.mac);
  const data = modelData(manufacturers, models, phone.vendor);
  const save = useMutation({
    mutationFn: (model: string) => deviceConfigApi.setModel(phone.mac, phone.vendor, model),
    onSuccess: () => {
      notifySuccess(t('phones.modelSaved', { mac }));
      onSaved();
    },
    onError: (e) => notifyError(t('phones.modelFailed'), e),
  });
  return (
    <WriteFieldset>
      <Select
        aria-label={t('phones.modelOf', { mac })}
        placeholder={data.length === 0 ? t('deviceConfig.noModels') : t('deviceConfig.chooseModel')}
        data={data}
        value={phone.model}
        onChange={(value) => value && save.mutate(value)}
        disabled={save.isPending || data.length === 0}
        searchable
        w={240}
      />
    </WriteFieldset>
  );
}

/** 'Add a phone': a MAC of a known vendor and its model, for phones a scan cannot see. */
function AddPhoneModal({
  manufacturers,
  models,
  listed,
  onAdded,
  onClose,
}: {
  manufacturers: PhoneManufacturers;
  models: readonly ModelSummary[];
  listed: ReadonlySet<string>;
  onAdded: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [model, setModel] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ mac?: string; model?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const dashed = canonicalMac(input.trim());
  const vendor = dashed ? vendorOfMac(dashed) : undefined;
  const colon = dashed?.replaceAll('-', ':');
  const save = useMutation({
    mutationFn: () => deviceConfigApi.setModel(colon as string, vendor as string, model as string),
    onSuccess: () => {
      notifySuccess(t('deviceConfig.added', { mac: dashed }));
      onAdded();
      onClose();
    },
    onError: (e) => setFailure(errorText(e)),
  });
  const submit = () => {
    setFailure(null);
    if (!dashed) return setErrors({ mac: t('deviceConfig.invalidMac') });
    if (!vendor) return setErrors({ mac: t('deviceConfig.unknownVendor') });
    if (colon && listed.has(colon)) return setErrors({ mac: t('deviceConfig.alreadyListed') });
    if (!model) return setErrors({ model: t('deviceConfig.modelRequired') });
    setErrors({});
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('deviceConfig.addTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Stack gap="sm">
        <TextInput
          label={t('deviceConfig.mac')}
          placeholder="00-15-65-AA-BB-CC"
          value={input}
          onChange={(e) => {
            setInput(e.currentTarget.value);
            setModel(null);
            setErrors({});
          }}
          description={vendor ? t('deviceConfig.vendorIs', { vendor }) : undefined}
          error={errors.mac}
          data-autofocus
        />
        <Select
          label={t('deviceConfig.model')}
          placeholder={t('deviceConfig.chooseModel')}
          data={vendor ? modelData(manufacturers, models, vendor) : []}
          value={model}
          onChange={(value) => {
            setModel(value);
            setErrors({});
          }}
          disabled={!vendor}
          error={errors.model}
          searchable
        />
        {failure && (
          <Alert color="red" title={t('deviceConfig.addFailed')}>
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            {t('deviceConfig.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Old-mode device configuration: find the phones on the server's networks and give each its model. */
export function ConfigDevicesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phones = useQuery({ queryKey: ['device-phones'], queryFn: deviceConfigApi.phones });
  const manufacturers = useQuery({ queryKey: ['phone-manufacturers'], queryFn: deviceConfigApi.manufacturers });
  const models = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models });
  const [scanned, setScanned] = useState<ScannedDevice[]>([]);
  const [adding, setAdding] = useState(false);
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: ['device-phones'] });
    void queryClient.invalidateQueries({ queryKey: ['inventory'] });
  };

  let list: React.ReactNode;
  const failed = phones.error ?? manufacturers.error ?? models.error;
  if (failed) {
    list = (
      <Alert color="red" title={t('deviceConfig.loadError')}>
        {errorText(failed)}
      </Alert>
    );
  } else if (!phones.data || !manufacturers.data || !models.data) {
    list = (
      <Center mt="md">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  } else {
    const rows = mergePhones(phones.data, scanned);
    list = (
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('deviceConfig.phonesTitle')}</Title>
          <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('deviceConfig.addPhone')}
          </WriteButton>
        </Group>
        {rows.length === 0 ? (
          <Card withBorder radius="md" p="lg" data-testid="config-phones-empty">
            <Stack align="center" gap="xs">
              <IconDeviceDesktop size={32} aria-hidden />
              <Text fw={600}>{t('deviceConfig.empty')}</Text>
              <Text size="sm" c="dimmed">
                {t('deviceConfig.emptyHint')}
              </Text>
            </Stack>
          </Card>
        ) : (
          <Table data-testid="config-phones">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('deviceConfig.mac')}</Table.Th>
                <Table.Th>{t('deviceConfig.vendor')}</Table.Th>
                <Table.Th>{t('deviceConfig.address')}</Table.Th>
                <Table.Th>{t('deviceConfig.user')}</Table.Th>
                <Table.Th>{t('deviceConfig.model')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((phone) => (
                <Table.Tr key={phone.mac} data-testid={`config-phone-${displayMac(phone.mac)}`}>
                  <Table.Td ff="monospace">{displayMac(phone.mac)}</Table.Td>
                  <Table.Td>{phone.vendor}</Table.Td>
                  <Table.Td>{phone.ipv4 ?? '—'}</Table.Td>
                  <Table.Td>
                    {phone.line
                      ? t('deviceConfig.linkedTo', {
                          name: phone.line.displayname ?? '',
                          extension: phone.line.extension,
                        })
                      : t('deviceConfig.notLinked')}
                  </Table.Td>
                  <Table.Td>
                    <PhoneModelSelect
                      phone={phone}
                      manufacturers={manufacturers.data}
                      models={models.data}
                      onSaved={reload}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {adding && (
          <AddPhoneModal
            manufacturers={manufacturers.data}
            models={models.data}
            listed={new Set(rows.map((r) => r.mac))}
            onAdded={reload}
            onClose={() => setAdding(false)}
          />
        )}
      </Stack>
    );
  }

  return (
    <StepScreen path={PATH} title={t('wizard.steps.configurations_devices')}>
      <Stack gap="lg" data-testid="config-devices">
        <Text c="dimmed">{t('deviceConfig.intro')}</Text>
        <Card withBorder radius="md" p="md">
          <Stack gap="xs">
            <Title order={3}>{t('deviceConfig.networksTitle')}</Title>
            <ScanNetwork inventory={new Set()} onFound={() => {}} onScanned={setScanned} />
          </Stack>
        </Card>
        {list}
      </Stack>
    </StepScreen>
  );
}
