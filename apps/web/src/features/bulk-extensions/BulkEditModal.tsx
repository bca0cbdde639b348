import {
  type BulkEdit,
  type BulkSettings,
  bulkEditSchema,
  CALL_PERMISSION_INHERIT,
  type Destinations,
  type RecordingPolicy,
  RING_TIME_MAX,
  recordingPolicies,
} from '@centralino/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Group,
  List,
  Loader,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifySuccess } from '../../components/notify.ts';
import { CallPermissionField } from '../blocking/CallPermissionField.tsx';
import { ctiApi } from '../cti/ctiApi.ts';
import { bulkApi } from './bulkApi.ts';

type FieldName =
  | 'profile'
  | 'displayname'
  | 'callwaiting'
  | 'ringtime'
  | 'callgroup'
  | 'pickupgroup'
  | 'outboundcid'
  | 'busydest'
  | 'noanswerdest'
  | 'notreachabledest'
  | 'recording'
  | 'callpermission';
const DESTINATION_FIELDS = ['busydest', 'noanswerdest', 'notreachabledest'] as const;

interface Form {
  profile: string;
  displayname: string;
  callwaiting: boolean;
  ringtime: number | string;
  callgroup: string;
  pickupgroup: string;
  cidMode: 'fixed' | 'variable';
  cidRoot: string;
  cidDigits: number | string;
  busydest: string;
  noanswerdest: string;
  notreachabledest: string;
  recording: RecordingPolicy;
  /** 'profile', or the allowed outbound classes joined by ',' ('' internal calls only). */
  callpermission: string;
}

/** What the form starts from: the common values, or the defaults where the users differ (spec §4). */
function initialForm(settings: BulkSettings, standardProfile: string): Form {
  return {
    profile: settings.profile === null || settings.profile === '-1' ? standardProfile : settings.profile,
    displayname: settings.displayname ?? '',
    callwaiting: settings.callwaiting ?? true,
    ringtime: settings.ringtime === null ? 0 : Number(settings.ringtime),
    callgroup: settings.callgroup ?? '',
    pickupgroup: settings.pickupgroup ?? '',
    cidMode: 'fixed',
    cidRoot: settings.outboundcid ?? '',
    cidDigits: 0,
    busydest: settings.busydest ?? '',
    noanswerdest: settings.noanswerdest ?? '',
    notreachabledest: settings.notreachabledest ?? '',
    recording: settings.recording ?? 'on_demand',
    callpermission: settings.callpermission ?? CALL_PERMISSION_INHERIT,
  };
}

/** The edit as sent: an unlocked field's value; a locked one is left out (untouched). */
function editOf(form: Form, unlocked: Set<FieldName>): BulkEdit {
  const edit: BulkEdit = {};
  if (unlocked.has('profile')) edit.profile = form.profile;
  if (unlocked.has('displayname')) edit.displayname = form.displayname;
  if (unlocked.has('callwaiting')) edit.callwaiting = form.callwaiting;
  if (unlocked.has('ringtime')) edit.ringtime = form.ringtime === '' ? Number.NaN : Number(form.ringtime);
  if (unlocked.has('callgroup')) edit.callgroup = form.callgroup;
  if (unlocked.has('pickupgroup')) edit.pickupgroup = form.pickupgroup;
  if (unlocked.has('outboundcid')) {
    edit.outboundcid_fixed = form.cidRoot;
    edit.outboundcid_variable = form.cidMode === 'variable' ? Number(form.cidDigits) : 0;
  }
  for (const f of DESTINATION_FIELDS) if (unlocked.has(f)) edit[f] = form[f];
  if (unlocked.has('recording')) edit.recording = form.recording;
  if (unlocked.has('callpermission')) edit.callpermission = form.callpermission;
  return edit;
}

/** The form's field an edit key belongs to (the caller ID has two keys). */
function fieldOf(key: string): FieldName {
  return key.startsWith('outboundcid') ? 'outboundcid' : (key as FieldName);
}

function LockedField({
  name,
  label,
  unlocked,
  onToggle,
  children,
}: {
  name: FieldName;
  label: string;
  unlocked: boolean;
  onToggle: (name: FieldName) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const action = unlocked ? t('bulkExt.lock', { field: label }) : t('bulkExt.unlock', { field: label });
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Tooltip label={action}>
        <ActionIcon
          variant={unlocked ? 'filled' : 'default'}
          size="lg"
          aria-label={action}
          aria-pressed={unlocked}
          onClick={() => onToggle(name)}
          mb={2}
        >
          {unlocked ? <IconLockOpen size={18} /> : <IconLock size={18} />}
        </ActionIcon>
      </Tooltip>
      <div style={{ flex: 1 }}>{children}</div>
    </Group>
  );
}

/** Category, then entry, of GET /api/destinations; 'None' keeps the default (voicemail or busy tone). */
function DestinationPicker({
  label,
  value,
  onChange,
  destinations,
  disabled,
  mixed,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  destinations: Destinations;
  disabled: boolean;
  mixed: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  const categoryOf = useMemo(() => {
    const map = new Map<string, string>();
    for (const [category, entries] of Object.entries(destinations)) {
      for (const e of Object.values(entries)) map.set(e.destination, category);
    }
    return map;
  }, [destinations]);
  const [category, setCategory] = useState<string | null>(categoryOf.get(value) ?? null);
  const shown = categoryOf.get(value) ?? category;
  const entries = shown ? Object.values(destinations[shown] ?? {}) : [];
  return (
    <Group gap="xs" grow align="flex-start">
      <Select
        label={label}
        disabled={disabled}
        placeholder={mixed && disabled ? t('bulkExt.mixed') : t('bulkExt.destinations.none')}
        data={[
          { value: '', label: t('bulkExt.destinations.none') },
          ...Object.keys(destinations).map((c) => ({ value: c, label: t(`bulkExt.categories.${c}`, c) })),
        ]}
        value={mixed && disabled ? null : (shown ?? '')}
        onChange={(c) => {
          setCategory(c || null);
          onChange('');
        }}
        error={error}
      />
      <Select
        label={t('bulkExt.destinations.entry', { field: label })}
        disabled={disabled || !shown}
        searchable
        data={entries.map((e) => ({ value: e.destination, label: e.description }))}
        value={value || null}
        onChange={(v) => onChange(v ?? '')}
      />
    </Group>
  );
}

/**
 * The bulk edit: every field starts locked (left untouched); unlocking one shows the users' common value or,
 * where they differ, the default. Before applying, the server says what would change.
 */
export function BulkEditModal({
  extensions,
  onClose,
  onApplied,
}: {
  extensions: string[];
  onClose: () => void;
  onApplied: () => void;
}) {
  const { t } = useTranslation();
  // Never from the cache: the form starts from these values once, so a copy read before the last apply would
  // show (and, unlocked, offer) what the users had before.
  const settings = useQuery({
    queryKey: ['bulk', 'settings', extensions],
    queryFn: () => bulkApi.settings(extensions),
    gcTime: 0,
  });
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: bulkApi.destinations });
  const profiles = useQuery({ queryKey: ['cti', 'profiles'], queryFn: ctiApi.profiles });
  const ready = settings.data && settings.isFetchedAfterMount && destinations.data && profiles.data;
  return (
    <Modal opened onClose={onClose} title={t('bulkExt.modal.title', { count: extensions.length })} size="xl">
      {ready ? (
        <EditForm
          extensions={extensions}
          settings={settings.data}
          destinations={destinations.data}
          profiles={profiles.data.map((p) => ({ value: String(p.id), label: p.name }))}
          onClose={onClose}
          onApplied={onApplied}
        />
      ) : settings.isError ? (
        <Alert color="red" title={t('bulkExt.errors.retrieving')}>
          {settings.error.message}
        </Alert>
      ) : (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      )}
    </Modal>
  );
}

function EditForm({
  extensions,
  settings,
  destinations,
  profiles,
  onClose,
  onApplied,
}: {
  extensions: string[];
  settings: BulkSettings;
  destinations: Destinations;
  profiles: { value: string; label: string }[];
  onClose: () => void;
  onApplied: () => void;
}) {
  const { t } = useTranslation();
  const standard = profiles.find((p) => p.label === 'Standard')?.value ?? profiles[0]?.value ?? '-1';
  const [form, setForm] = useState<Form>(() => initialForm(settings, standard));
  const [unlocked, setUnlocked] = useState<Set<FieldName>>(new Set());
  const toggle = (name: FieldName) => {
    setUnlocked((current) => {
      const next = new Set(current);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });
    // Unlocking starts again from the common value or the default.
    const initial = initialForm(settings, standard);
    setForm((f) =>
      name === 'outboundcid'
        ? { ...f, cidMode: initial.cidMode, cidRoot: initial.cidRoot, cidDigits: initial.cidDigits }
        : { ...f, [name]: initial[name as keyof Form] },
    );
  };
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const edit = editOf(form, unlocked);
  const parsed = bulkEditSchema.safeParse(edit);
  const invalid = new Set<FieldName>(parsed.success ? [] : parsed.error.issues.map((i) => fieldOf(String(i.path[0]))));
  const [debouncedEdit] = useDebouncedValue(edit, 300);
  const debouncedValid = bulkEditSchema.safeParse(debouncedEdit).success;
  const preview = useQuery({
    queryKey: ['bulk', 'preview', extensions, debouncedEdit],
    queryFn: () => bulkApi.preview(extensions, debouncedEdit),
    enabled: unlocked.size > 0 && debouncedValid,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => bulkApi.apply(extensions, edit),
    onSuccess: (answer) => {
      notifySuccess(t('bulkExt.applied', { count: answer.users }));
      onApplied();
      onClose();
    },
  });
  const serverFields =
    (apply.error instanceof ApiError ? apply.error.body.fields : undefined) ??
    (preview.error instanceof ApiError ? preview.error.body.fields : undefined) ??
    {};
  const serverError = (name: FieldName) => Object.entries(serverFields).find(([key]) => fieldOf(key) === name)?.[1];
  const errorOf = (name: FieldName) =>
    unlocked.has(name) && invalid.has(name) ? t(`bulkExt.invalid.${name}`) : serverError(name);
  const mixed = (key: keyof BulkSettings) => settings[key] === null;
  const lockedPlaceholder = (key: keyof BulkSettings, name: FieldName) =>
    !unlocked.has(name) && mixed(key) ? t('bulkExt.mixed') : undefined;
  const locked = (name: FieldName) => !unlocked.has(name);
  const labels: Record<FieldName, string> = {
    profile: t('bulkExt.fields.profile'),
    displayname: t('bulkExt.fields.displayname'),
    callwaiting: t('bulkExt.fields.callwaiting'),
    ringtime: t('bulkExt.fields.ringtime'),
    callgroup: t('bulkExt.fields.callgroup'),
    pickupgroup: t('bulkExt.fields.pickupgroup'),
    outboundcid: t('bulkExt.fields.outboundcid'),
    busydest: t('bulkExt.fields.busydest'),
    noanswerdest: t('bulkExt.fields.noanswerdest'),
    notreachabledest: t('bulkExt.fields.notreachabledest'),
    recording: t('callRecording.policy'),
    callpermission: t('blocking.permission.label'),
  };
  const field = (name: FieldName, child: ReactNode) => (
    <LockedField name={name} label={labels[name]} unlocked={unlocked.has(name)} onToggle={toggle}>
      {child}
    </LockedField>
  );

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('bulkExt.modal.help')}
      </Text>
      {field(
        'profile',
        <Select
          label={labels.profile}
          disabled={locked('profile')}
          placeholder={lockedPlaceholder('profile', 'profile')}
          data={[{ value: '-1', label: t('bulkExt.noProfile') }, ...profiles]}
          value={locked('profile') ? settings.profile : form.profile}
          onChange={(v) => set('profile', v ?? standard)}
          allowDeselect={false}
          error={errorOf('profile')}
        />,
      )}
      {field(
        'displayname',
        <TextInput
          label={labels.displayname}
          description={t('bulkExt.displaynameHelp')}
          disabled={locked('displayname')}
          placeholder={lockedPlaceholder('displayname', 'displayname')}
          value={form.displayname}
          onChange={(e) => set('displayname', e.currentTarget.value)}
          error={errorOf('displayname')}
        />,
      )}
      {field(
        'callwaiting',
        <Switch
          label={labels.callwaiting}
          description={locked('callwaiting') && mixed('callwaiting') ? t('bulkExt.mixed') : undefined}
          disabled={locked('callwaiting')}
          checked={form.callwaiting}
          onChange={(e) => set('callwaiting', e.currentTarget.checked)}
        />,
      )}
      {field(
        'recording',
        <Select
          label={labels.recording}
          description={t('callRecording.help')}
          disabled={locked('recording')}
          placeholder={lockedPlaceholder('recording', 'recording')}
          data={recordingPolicies.map((p) => ({ value: p, label: t(`callRecording.policies.${p}`) }))}
          value={locked('recording') ? settings.recording : form.recording}
          onChange={(v) => set('recording', (v ?? 'on_demand') as RecordingPolicy)}
          allowDeselect={false}
          error={serverError('recording')}
        />,
      )}
      {field(
        'callpermission',
        <CallPermissionField
          label={labels.callpermission}
          disabled={locked('callpermission')}
          mixed={locked('callpermission') && mixed('callpermission')}
          value={locked('callpermission') ? (settings.callpermission ?? '') : form.callpermission}
          onChange={(v) => set('callpermission', v)}
          error={serverError('callpermission')}
        />,
      )}
      {field(
        'ringtime',
        <NumberInput
          label={labels.ringtime}
          description={t('bulkExt.ringtimeHelp')}
          disabled={locked('ringtime')}
          placeholder={lockedPlaceholder('ringtime', 'ringtime')}
          min={0}
          max={RING_TIME_MAX}
          allowDecimal={false}
          allowNegative={false}
          value={locked('ringtime') && mixed('ringtime') ? '' : form.ringtime}
          onChange={(v) => set('ringtime', v)}
          error={errorOf('ringtime')}
        />,
      )}
      <Group grow align="flex-start">
        {field(
          'callgroup',
          <TextInput
            label={labels.callgroup}
            disabled={locked('callgroup')}
            placeholder={lockedPlaceholder('callgroup', 'callgroup') ?? '1,3-5,reception'}
            value={form.callgroup}
            onChange={(e) => set('callgroup', e.currentTarget.value)}
            error={errorOf('callgroup')}
          />,
        )}
        {field(
          'pickupgroup',
          <TextInput
            label={labels.pickupgroup}
            disabled={locked('pickupgroup')}
            placeholder={lockedPlaceholder('pickupgroup', 'pickupgroup') ?? '1,3-5,reception'}
            value={form.pickupgroup}
            onChange={(e) => set('pickupgroup', e.currentTarget.value)}
            error={errorOf('pickupgroup')}
          />,
        )}
      </Group>
      {field(
        'outboundcid',
        <Stack gap={4}>
          <Text size="sm" fw={500} id="bulk-cid-label">
            {labels.outboundcid}
          </Text>
          <SegmentedControl
            aria-labelledby="bulk-cid-label"
            disabled={locked('outboundcid')}
            value={form.cidMode}
            onChange={(v) => set('cidMode', v as Form['cidMode'])}
            data={[
              { value: 'fixed', label: t('bulkExt.cid.fixed') },
              { value: 'variable', label: t('bulkExt.cid.variable') },
            ]}
          />
          <Group grow align="flex-start">
            <TextInput
              label={t('bulkExt.cid.root')}
              disabled={locked('outboundcid')}
              placeholder={lockedPlaceholder('outboundcid', 'outboundcid')}
              value={form.cidRoot}
              onChange={(e) => set('cidRoot', e.currentTarget.value)}
              error={errorOf('outboundcid')}
            />
            {form.cidMode === 'variable' && (
              <NumberInput
                label={t('bulkExt.cid.digits')}
                disabled={locked('outboundcid')}
                min={0}
                max={10}
                allowDecimal={false}
                allowNegative={false}
                value={form.cidDigits}
                onChange={(v) => set('cidDigits', v)}
              />
            )}
          </Group>
        </Stack>,
      )}
      {DESTINATION_FIELDS.map((name) => (
        <div key={name}>
          {field(
            name,
            <DestinationPicker
              label={labels[name]}
              value={form[name]}
              onChange={(v) => set(name, v)}
              destinations={destinations}
              disabled={locked(name)}
              mixed={mixed(name)}
              error={errorOf(name)}
            />,
          )}
        </div>
      ))}
      <Alert color={preview.isError ? 'red' : 'blue'} title={t('bulkExt.preview.title')} role="status">
        {unlocked.size === 0 ? (
          <Text size="sm">{t('bulkExt.preview.nothing')}</Text>
        ) : !parsed.success ? (
          <Text size="sm">{t('bulkExt.preview.invalid')}</Text>
        ) : preview.isError ? (
          <Text size="sm">{preview.error instanceof ApiError ? preview.error.body.detail : preview.error.message}</Text>
        ) : preview.data ? (
          <Stack gap={4}>
            <Text size="sm" data-testid="bulk-preview">
              {t('bulkExt.preview.summary', { users: preview.data.users, count: preview.data.changed })}{' '}
              {t('bulkExt.preview.phones', { count: preview.data.devices })}
            </Text>
            {preview.data.changes.length > 0 ? (
              <List size="sm">
                {preview.data.changes.map((c) => (
                  <List.Item key={c.field}>
                    {t('bulkExt.preview.change', { field: labels[fieldOf(c.field)], count: c.users })}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm">{t('bulkExt.preview.same')}</Text>
            )}
          </Stack>
        ) : (
          <Loader size="xs" aria-label={t('app.loading')} />
        )}
      </Alert>
      {apply.isError && (
        <Alert color="red" title={t('bulkExt.errors.apply')} role="alert">
          {apply.error instanceof ApiError ? apply.error.body.detail : apply.error.message}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('bulkExt.cancel')}
        </Button>
        <Button
          disabled={unlocked.size === 0 || !parsed.success}
          loading={apply.isPending}
          onClick={() => apply.mutate()}
        >
          {t('bulkExt.apply', { count: extensions.length })}
        </Button>
      </Group>
    </Stack>
  );
}
