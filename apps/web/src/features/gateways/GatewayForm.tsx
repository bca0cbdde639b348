import {
  type GatewayCreate,
  type GatewayManufacturers,
  gatewayCreateSchema,
  gatewayModelDescription,
  type User,
} from '@centralino/contract';
import { Button, Divider, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WriteFieldset } from '../../components/WriteControls.tsx';

export interface GatewayFormValues {
  vendor: string | null;
  model: string | null;
  mac: string;
  /** Where the device is now (discovered gateways); empty when added by hand. */
  ipv4: string;
  ipv4_new: string;
  netmask_green: string;
  gateway: string;
  ipv4_green: string;
  isdn: ('pp' | 'pmp')[];
  pri: number;
  fxo: string[];
  fxs: (string | null)[];
}

export function emptyValues(initial: Partial<GatewayFormValues> = {}): GatewayFormValues {
  return {
    vendor: null,
    model: null,
    mac: '',
    ipv4: '',
    ipv4_new: '',
    netmask_green: '',
    gateway: '',
    ipv4_green: '',
    isdn: [],
    pri: 0,
    fxo: [],
    fxs: [],
    ...initial,
  };
}

/** The request of a form, or the messages of its invalid fields (same schema as the server). */
export function toRequest(
  values: GatewayFormValues,
  t: (key: string) => string,
): { body: GatewayCreate } | { errors: Record<string, string> } {
  const body: GatewayCreate = {
    model: Number(values.model ?? 0),
    mac: values.mac,
    ipv4: values.ipv4,
    ipv4_new: values.ipv4_new,
    netmask_green: values.netmask_green,
    gateway: values.gateway,
    ipv4_green: values.ipv4_green,
    trunks_isdn: values.isdn.map((type) => ({ type })),
    trunks_pri: Array.from({ length: values.pri }, () => ({})),
    trunks_fxo: values.fxo.map((number) => ({ number })),
    trunks_fxs: values.fxs.map((linked_extension) => ({ linked_extension })),
  };
  const errors: Record<string, string> = {};
  if (!values.vendor) errors.vendor = t('gateways.form.vendorRequired');
  if (!values.model) errors.model = t('gateways.form.modelRequired');
  const parsed = gatewayCreateSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= messageFor(key, values, t);
    }
  }
  return Object.keys(errors).length ? { errors } : { body };
}

function messageFor(key: string, values: GatewayFormValues, t: (key: string) => string): string {
  if (key === 'mac') return values.mac ? t('gateways.form.macInvalid') : t('gateways.form.macRequired');
  if (key === 'netmask_green') return t('gateways.form.netmaskInvalid');
  if (key.startsWith('trunks_fxo')) return t('gateways.form.digitsOnly');
  if (key === 'model') return t('gateways.form.modelRequired');
  return t('gateways.form.ipInvalid');
}

/** Resizes the port rows to the counts of the chosen model. */
export function withModel(
  values: GatewayFormValues,
  catalogue: GatewayManufacturers,
  id: string | null,
): GatewayFormValues {
  const model = Object.values(catalogue)
    .flat()
    .find((m) => String(m.id) === id);
  return {
    ...values,
    model: id,
    isdn: Array.from({ length: model?.n_isdn_trunks ?? 0 }, (_, i) => values.isdn[i] ?? 'pp'),
    pri: model?.n_pri_trunks ?? 0,
    fxo: Array.from({ length: model?.n_fxo_trunks ?? 0 }, (_, i) => values.fxo[i] ?? ''),
    fxs: Array.from({ length: model?.n_fxs_ext ?? 0 }, (_, i) => values.fxs[i] ?? null),
  };
}

/** Port label as the trunk will be named: numbering from 0 for Patton, 1 for the others. */
function portLabel(vendor: string | null, type: string, index: number): string {
  return `${type} ${index + (vendor === 'Patton' ? 0 : 1)}`;
}

/**
 * Gateway fields: vendor and MAC are asked only for a gateway added by hand (a discovered one
 * brings them); ports follow the chosen model.
 */
export function GatewayForm({
  catalogue,
  users,
  initial,
  manual,
  saving,
  onSubmit,
  onCancel,
}: {
  catalogue: GatewayManufacturers;
  users: User[];
  initial: GatewayFormValues;
  manual: boolean;
  saving: boolean;
  onSubmit: (body: GatewayCreate) => void;
  onCancel?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState(initial);
  // Checked live once Save was tried, like the console's other forms: a corrected field stops being red.
  const [tried, setTried] = useState(false);
  const checked = toRequest(values, t);
  const errors: Record<string, string> = tried && 'errors' in checked ? checked.errors : {};
  const set = (patch: Partial<GatewayFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const models = values.vendor ? (catalogue[values.vendor] ?? []) : [];
  const userOptions = users.map((u) => ({
    value: u.default_extension,
    label: `${u.displayname} (${u.default_extension})`,
  }));

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if ('body' in checked) onSubmit(checked.body);
      }}
    >
      <WriteFieldset>
        <Stack gap="sm">
          {manual && (
            <Select
              label={t('gateways.form.vendor')}
              withAsterisk
              data={Object.keys(catalogue)}
              value={values.vendor}
              error={errors.vendor}
              onChange={(vendor) => {
                const next = withModel({ ...values, vendor }, catalogue, null);
                // The PBX address the server suggests, unless one was typed already.
                setValues({ ...next, ipv4_green: next.ipv4_green || catalogue[vendor ?? '']?.[0]?.ipv4_green || '' });
              }}
            />
          )}
          <Select
            label={t('gateways.form.model')}
            withAsterisk
            data={models.map((m) => ({
              value: String(m.id),
              label: `${gatewayModelDescription(m.id, m.description, i18n.language)} | ${m.model}`,
            }))}
            value={values.model}
            error={errors.model}
            disabled={!values.vendor}
            searchable
            onChange={(id) => setValues(withModel(values, catalogue, id))}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('gateways.form.deviceIp')}
              withAsterisk
              value={values.ipv4_new}
              error={errors.ipv4_new}
              onChange={(e) => set({ ipv4_new: e.currentTarget.value })}
            />
            <TextInput
              label={t('gateways.form.mac')}
              withAsterisk={manual}
              placeholder="00:11:22:AA:BB:CC"
              readOnly={!manual}
              value={values.mac}
              error={errors.mac}
              onChange={(e) => set({ mac: e.currentTarget.value })}
            />
            <TextInput
              label={t('gateways.form.netmask')}
              withAsterisk
              placeholder="255.255.255.0"
              value={values.netmask_green}
              error={errors.netmask_green}
              onChange={(e) => set({ netmask_green: e.currentTarget.value })}
            />
            <TextInput
              label={t('gateways.form.gateway')}
              withAsterisk
              value={values.gateway}
              error={errors.gateway}
              onChange={(e) => set({ gateway: e.currentTarget.value })}
            />
            <TextInput
              label={t('gateways.form.pbxIp')}
              withAsterisk={!manual}
              value={values.ipv4_green}
              error={errors.ipv4_green}
              onChange={(e) => set({ ipv4_green: e.currentTarget.value })}
            />
          </SimpleGrid>
          {(values.isdn.length > 0 || values.pri > 0 || values.fxo.length > 0 || values.fxs.length > 0) && (
            <Divider label={t('gateways.form.ports')} labelPosition="left" />
          )}
          {values.isdn.map((type, i) => (
            <Select
              // biome-ignore lint/suspicious/noArrayIndexKey: ports are positions of the model
              key={`isdn-${i}`}
              label={t('gateways.form.isdnType', { port: portLabel(values.vendor, 'ISDN', i) })}
              data={[
                { value: 'pp', label: t('gateways.form.pp') },
                { value: 'pmp', label: t('gateways.form.pmp') },
              ]}
              value={type}
              allowDeselect={false}
              onChange={(v) => set({ isdn: values.isdn.map((x, k) => (k === i ? (v as 'pp' | 'pmp') : x)) })}
            />
          ))}
          {Array.from({ length: values.pri }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: ports are positions of the model
            <Text key={`pri-${i}`} size="sm">
              {t('gateways.form.priPort', { port: portLabel(values.vendor, 'PRI', i) })}
            </Text>
          ))}
          {values.fxo.map((number, i) => (
            <TextInput
              // biome-ignore lint/suspicious/noArrayIndexKey: ports are positions of the model
              key={`fxo-${i}`}
              label={t('gateways.form.fxoNumber', { port: portLabel(values.vendor, 'FXO', i) })}
              value={number}
              error={errors[`trunks_fxo.${i}.number`]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                set({ fxo: values.fxo.map((x, k) => (k === i ? value : x)) });
              }}
            />
          ))}
          {values.fxs.map((extension, i) => (
            <Select
              // biome-ignore lint/suspicious/noArrayIndexKey: ports are positions of the model
              key={`fxs-${i}`}
              label={t('gateways.form.fxsExtension', { port: i + 1 })}
              placeholder={t('gateways.form.fxsNone')}
              data={userOptions}
              value={extension}
              clearable
              searchable
              error={errors[`trunks_fxs.${i}.linked_extension`]}
              onChange={(v) => set({ fxs: values.fxs.map((x, k) => (k === i ? v : x)) })}
            />
          ))}
          <Group justify="flex-end" mt="sm">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {t('common.cancel')}
              </Button>
            )}
            <Button type="submit" loading={saving}>
              {t('gateways.save')}
            </Button>
          </Group>
        </Stack>
      </WriteFieldset>
    </form>
  );
}
