import {
  DEFAULT_VOIP_CODECS,
  type Trunk,
  VOIP_CODECS,
  type VoipTrunkCreate,
  voipTrunkCreateSchema,
  voipTrunkPatchSchema,
} from '@centralino/contract';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { trunksApi } from './trunksApi.ts';

type Fields = Partial<Record<keyof VoipTrunkCreate, string>>;

function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): Fields {
  const out: Fields = {};
  if (result.success || !result.error) return out;
  for (const issue of result.error.issues) out[String(issue.path[0]) as keyof VoipTrunkCreate] ??= 'invalid';
  return out;
}

/** Create modal: provider, name, account, number (all required), codecs (alaw, ulaw) and force codec (on). */
export function CreateTrunkModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: ['providers'], queryFn: trunksApi.providers, enabled: opened });
  const [form, setForm] = useState<VoipTrunkCreate>({
    provider: '',
    name: '',
    username: '',
    password: '',
    phone: '',
    codecs: [...DEFAULT_VOIP_CODECS] as VoipTrunkCreate['codecs'],
    forceCodec: true,
    continue: false,
  });
  const [touched, setTouched] = useState(false);
  const errors = touched ? issuesOf(voipTrunkCreateSchema.safeParse(form)) : {};
  const message = (field: keyof VoipTrunkCreate) => (errors[field] ? t(`voip.errors.${field}`) : undefined);
  const create = useMutation({
    mutationFn: () => trunksApi.create(voipTrunkCreateSchema.parse(form)),
    onSuccess: (r) => onCreated(r.trunkid),
  });
  const set = (patch: Partial<VoipTrunkCreate>) => setForm((f) => ({ ...f, ...patch }));

  return (
    <Modal opened={opened} onClose={onClose} title={t('voip.create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (voipTrunkCreateSchema.safeParse(form).success) create.mutate();
        }}
      >
        <Stack>
          <Select
            label={t('voip.provider')}
            withAsterisk
            searchable
            data={(providers.data ?? []).map((p) => ({ value: p.provider, label: p.description }))}
            value={form.provider || null}
            error={message('provider')}
            onChange={(v) => set({ provider: v ?? '', name: form.name || (v ?? '') })}
          />
          <TextInput
            label={t('voip.name')}
            withAsterisk
            value={form.name}
            error={message('name')}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <TextInput
            label={t('voip.username')}
            withAsterisk
            value={form.username}
            error={message('username')}
            onChange={(e) => set({ username: e.currentTarget.value })}
          />
          <PasswordInput
            label={t('voip.password')}
            withAsterisk
            value={form.password}
            error={message('password')}
            onChange={(e) => set({ password: e.currentTarget.value })}
          />
          <TextInput
            label={t('voip.phone')}
            withAsterisk
            value={form.phone}
            error={message('phone')}
            onChange={(e) => set({ phone: e.currentTarget.value })}
          />
          <MultiSelect
            label={t('voip.codecs')}
            data={[...VOIP_CODECS]}
            value={form.codecs}
            error={message('codecs')}
            onChange={(v) => set({ codecs: v as VoipTrunkCreate['codecs'] })}
          />
          <Switch
            label={t('voip.forceCodec')}
            checked={form.forceCodec}
            onChange={(e) => set({ forceCodec: e.currentTarget.checked })}
          />
          <Switch
            label={t('voip.continue')}
            description={t('voip.continueHelp')}
            checked={form.continue ?? false}
            onChange={(e) => set({ continue: e.currentTarget.checked })}
          />
          {create.error && (
            <Alert color="red" title={t('voip.createFailed')}>
              {create.error instanceof ApiError ? create.error.body.detail : create.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('voip.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Edit modal: username, a new password (empty keeps the old one), number, codecs, force codec, always continue. */
export function EditTrunkModal({
  trunk,
  onClose,
  onSaved,
}: {
  trunk: Trunk;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [username, setUsername] = useState(trunk.username ?? '');
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState(trunk.outcid ?? '');
  const [codecs, setCodecs] = useState<string[]>(
    trunk.codecs.filter((c) => (VOIP_CODECS as readonly string[]).includes(c)),
  );
  const [forceCodec, setForceCodec] = useState(trunk.forceCodec);
  const [alwaysContinue, setAlwaysContinue] = useState(trunk.continue);
  const body = { username, password, phone, codecs, forceCodec, continue: alwaysContinue };
  const parsed = voipTrunkPatchSchema.safeParse(body);
  const [touched, setTouched] = useState(false);
  const errors = touched ? issuesOf(parsed as never) : {};
  const save = useMutation({
    mutationFn: () => trunksApi.patch(trunk.trunkid, voipTrunkPatchSchema.parse(body)),
    onSuccess: onSaved,
  });
  return (
    <Modal opened onClose={onClose} title={t('voip.edit', { name: trunk.name })}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (parsed.success) save.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('voip.username')}
            value={username}
            error={errors.username ? t('voip.errors.username') : undefined}
            onChange={(e) => setUsername(e.currentTarget.value)}
          />
          <PasswordInput
            label={t('voip.newPassword')}
            description={t('voip.keepPassword')}
            value={password}
            error={errors.password ? t('voip.errors.password') : undefined}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <TextInput
            label={t('voip.phone')}
            value={phone}
            error={errors.phone ? t('voip.errors.phone') : undefined}
            onChange={(e) => setPhone(e.currentTarget.value)}
          />
          <MultiSelect
            label={t('voip.codecs')}
            data={[...VOIP_CODECS]}
            value={codecs}
            error={errors.codecs ? t('voip.errors.codecs') : undefined}
            onChange={setCodecs}
          />
          <Switch
            label={t('voip.forceCodec')}
            checked={forceCodec}
            onChange={(e) => setForceCodec(e.currentTarget.checked)}
          />
          <Switch
            label={t('voip.continue')}
            description={t('voip.continueHelp')}
            checked={alwaysContinue}
            onChange={(e) => setAlwaysContinue(e.currentTarget.checked)}
          />
          {save.error && (
            <Alert color="red" title={t('voip.editFailed')}>
              {save.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('voip.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
