import {
  localiseValidationMessage,
  type StreamingSource,
  snapshotDataUrl,
  streamingSourceWriteSchema,
  type UiLanguage,
} from '@centralino/contract';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  Group,
  Image,
  Loader,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { ctiApi } from '../cti/ctiApi.ts';
import { usersApi } from '../users/usersApi.ts';
import { appsApi } from './appsApi.ts';

type Profile = { id: number; name: string };

function reasonOf(error: unknown): string {
  return error instanceof ApiError ? error.body.detail : error instanceof Error ? error.message : '';
}

/** The snapshot of a listed source, fetched through the server when the list loads. */
function useSnapshot(url: string, descr: string) {
  return useQuery({
    queryKey: ['apps', 'snapshot', url, descr],
    queryFn: () => appsApi.testStreaming(url, descr),
    retry: false,
    staleTime: 30_000,
  });
}

/** Users with a main extension whose name or number matches, as 'name - extension'. */
function useExtensionChoices(search: string, current: string) {
  const users = useQuery({
    queryKey: ['apps', 'extensions', search],
    queryFn: async () =>
      (await usersApi.configured({ sort: 'extension', limit: 50, ...(search ? { search } : {}) })).users,
    staleTime: 30_000,
  });
  const data = (users.data ?? []).map((u) => ({
    value: u.default_extension,
    label: `${u.displayname || u.username} - ${u.default_extension}`,
  }));
  if (current && !data.some((d) => d.value === current)) data.unshift({ value: current, label: current });
  return data;
}

function StreamingModal({
  editing,
  profiles,
  onClose,
}: {
  editing?: StreamingSource;
  profiles: Profile[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const lang = (i18n.language === 'it' ? 'it' : 'en') as UiLanguage;
  const [form, setForm] = useState({
    descr: editing?.descr ?? '',
    url: editing?.url ?? '',
    exten: editing?.exten ?? '',
    open: editing?.open ?? '',
    profiles: editing?.profiles.map(String) ?? [],
  });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [search, setSearch] = useState('');
  const extensions = useExtensionChoices(search, form.exten);
  const check = useMutation({ mutationFn: (url: string) => appsApi.testStreaming(url, editing?.descr) });
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (key === 'url') check.reset();
  };
  const parsed = streamingSourceWriteSchema.safeParse(form);
  const issue = (field: string) => {
    if (!touched[field] || parsed.success) return undefined;
    const found = parsed.error.issues.find((i) => i.path[0] === field);
    return found ? localiseValidationMessage(lang, found.message) : undefined;
  };
  const verified = check.isSuccess;
  const save = useMutation({
    mutationFn: async () => {
      const body = { ...form, descr: form.descr.trim(), url: form.url.trim(), open: form.open.trim() };
      if (editing) await appsApi.updateStreaming(editing.descr, body);
      else await appsApi.createStreaming(body);
    },
    onSuccess: () => {
      notifySuccess(t('apps.streaming.saved'));
      void queryClient.invalidateQueries({ queryKey: ['apps', 'streaming'] });
      void queryClient.invalidateQueries({ queryKey: ['apps', 'snapshot'] });
      onClose();
    },
    onError: (e) => notifyError(t('apps.streaming.notSaved'), e),
  });
  const blur = (field: string) => () => setTouched((s) => ({ ...s, [field]: true }));
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={editing ? t('apps.streaming.modal.modify') : t('apps.streaming.modal.create')}
    >
      <Stack gap="sm">
        <TextInput
          label={t('apps.streaming.modal.name')}
          required
          value={form.descr}
          onChange={(e) => set('descr', e.currentTarget.value)}
          onBlur={blur('descr')}
          error={issue('descr')}
        />
        <Select
          label={t('apps.streaming.modal.extension')}
          description={t('apps.streaming.modal.extensionHelp')}
          searchable
          clearable
          nothingFoundMessage={t('apps.streaming.modal.noExtension')}
          data={extensions}
          value={form.exten || null}
          onChange={(v) => set('exten', v ?? '')}
          onSearchChange={setSearch}
          filter={({ options }) => options}
        />
        <TextInput
          label={t('apps.streaming.modal.url')}
          description={
            editing?.has_password && form.url === editing.url
              ? t('apps.streaming.modal.passwordKept')
              : t('apps.streaming.modal.urlHelp')
          }
          required
          placeholder="http://192.168.1.50/snapshot.jpg"
          value={form.url}
          onChange={(e) => set('url', e.currentTarget.value)}
          onBlur={blur('url')}
          error={issue('url')}
        />
        <TextInput
          label={t('apps.streaming.modal.open')}
          description={t('apps.streaming.modal.openHelp')}
          value={form.open}
          onChange={(e) => set('open', e.currentTarget.value)}
          onBlur={blur('open')}
          error={issue('open')}
        />
        <MultiSelect
          label={t('apps.streaming.modal.profiles')}
          required
          data={profiles.map((p) => ({ value: String(p.id), label: p.name }))}
          value={form.profiles}
          onChange={(v) => {
            set('profiles', v);
            setTouched((s) => ({ ...s, profiles: true }));
          }}
          error={issue('profiles')}
        />
        <Group align="center">
          <Button
            variant="default"
            disabled={form.url.trim() === '' && form.open.trim() === ''}
            loading={check.isPending}
            onClick={() => check.mutate(form.url.trim())}
          >
            {t('apps.streaming.modal.check')}
          </Button>
          <div aria-live="polite">
            {check.isSuccess && (
              <Badge color="teal" variant="light">
                {t('apps.streaming.connected')}
              </Badge>
            )}
          </div>
        </Group>
        {check.isError && (
          <Alert color="red" title={t('apps.streaming.connectionError')} role="alert">
            {reasonOf(check.error)}
          </Alert>
        )}
        {check.data && (
          <Image
            src={snapshotDataUrl(check.data)}
            alt={t('apps.streaming.previewOf', { name: form.descr || form.url })}
            maw={320}
            radius="sm"
            data-testid="streaming-check-preview"
          />
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!parsed.success || !verified} loading={save.isPending} onClick={() => save.mutate()}>
            {t('apps.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function StreamingItem({
  source,
  profiles,
  onModify,
}: {
  source: StreamingSource;
  profiles: Profile[];
  onModify: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const snapshot = useSnapshot(source.url, source.descr);
  const remove = useMutation({
    mutationFn: () => appsApi.removeStreaming(source.descr),
    onSuccess: () => {
      notifySuccess(t('apps.streaming.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['apps', 'streaming'] });
    },
    onError: (e) => notifyError(t('apps.streaming.notDeleted'), e),
  });
  const names = source.profiles.map((id) => profiles.find((p) => p.id === id)?.name ?? String(id));
  return (
    <Card withBorder radius="md" p="md" component="article" aria-label={source.descr} data-testid="streaming-source">
      <Stack gap="xs">
        <Title order={2} size="h4" style={{ wordBreak: 'break-all' }}>
          {source.descr}
        </Title>
        <Text size="sm">
          {t('apps.streaming.extension')}: {source.exten || t('apps.streaming.none')}
        </Text>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {t('apps.streaming.url')}: {source.url}
        </Text>
        <Text size="sm">
          {t('apps.streaming.open')}: {source.open || t('apps.streaming.none')}
        </Text>
        <Text size="sm">
          {t('apps.paramurl.profiles')}: {names.join(', ') || t('apps.streaming.none')}
        </Text>
        <Box>
          {snapshot.data && (
            <Image
              src={snapshotDataUrl(snapshot.data)}
              alt={t('apps.streaming.previewOf', { name: source.descr })}
              maw={320}
              radius="sm"
            />
          )}
          <Badge
            mt={4}
            fullWidth
            radius="xs"
            variant="filled"
            color={snapshot.isPending ? 'gray' : snapshot.isError ? 'red' : 'teal'}
            role="status"
            data-testid="streaming-status"
          >
            {snapshot.isPending
              ? t('apps.streaming.checking')
              : snapshot.isError
                ? t('apps.streaming.connectionError')
                : t('apps.streaming.connected')}
          </Badge>
          {snapshot.isError && (
            <Text size="sm" c="red.8" mt={4}>
              {reasonOf(snapshot.error)}
            </Text>
          )}
        </Box>
        <Group gap="xs">
          <WriteButton variant="default" size="xs" onClick={onModify}>
            {t('apps.modify')}
          </WriteButton>
          <DeleteButton
            label={t('apps.delete')}
            title={t('apps.streaming.deleteTitle', { name: source.descr })}
            message={t('apps.streaming.deleteMessage', { name: source.descr })}
            loading={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </Group>
      </Stack>
    </Card>
  );
}

/** /apps/streaming: video sources (contract api-admin §7), previewed through the server. */
export function StreamingPage() {
  const { t } = useTranslation();
  const sources = useQuery({ queryKey: ['apps', 'streaming'], queryFn: appsApi.streaming });
  const profiles = useQuery({ queryKey: ['apps', 'profiles'], queryFn: ctiApi.profiles });
  const [open, setOpen] = useState<{ editing?: StreamingSource } | null>(null);
  const profileList: Profile[] = (profiles.data ?? []).map((p) => ({ id: p.id, name: p.name }));
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('apps.streaming.title')}
        </Title>
        <WriteButton leftSection={<IconPlus size={16} />} disabled={!profiles.data} onClick={() => setOpen({})}>
          {t('apps.streaming.create')}
        </WriteButton>
      </Group>
      <Text c="dimmed">{t('apps.streaming.intro')}</Text>
      {sources.isPending || profiles.isPending ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : sources.isError || profiles.isError ? (
        <Alert color="red" title={t('apps.loadFailed')}>
          {(sources.error ?? profiles.error)?.message}
        </Alert>
      ) : sources.data.length === 0 ? (
        <Text>{t('apps.streaming.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {sources.data.map((source) => (
            <StreamingItem
              key={source.id}
              source={source}
              profiles={profileList}
              onModify={() => setOpen({ editing: source })}
            />
          ))}
        </SimpleGrid>
      )}
      {open && <StreamingModal editing={open.editing} profiles={profileList} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
