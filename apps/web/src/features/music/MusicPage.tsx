import {
  MUSIC_PLAY_ORDERS,
  type MusicClass,
  type MusicFile,
  type MusicPlayOrder,
  musicClassNameSchema,
  RECORDING_UPLOAD_MAX_BYTES,
} from '@centralino/contract';
import {
  Button,
  Card,
  Center,
  FileInput,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlayerPlay, IconPlus, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteFieldset } from '../../components/WriteControls.tsx';
import { seconds } from '../flows/RecordingsPage.tsx';
import { musicApi } from './musicApi.ts';

const QUERY_KEY = ['music'];

function NewClassCard({ onCreated }: { onCreated: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [order, setOrder] = useState<MusicPlayOrder>('alpha');
  const [touched, setTouched] = useState(false);
  const valid = musicClassNameSchema.safeParse(name).success;
  const create = useMutation({
    mutationFn: () => musicApi.create({ name: name.trim(), play_order: order }),
    onSuccess: () => {
      notifySuccess(t('music.created', { name: name.trim() }));
      setName('');
      setTouched(false);
      onCreated();
    },
    onError: (e) => notifyError(t('music.createFailed'), e),
  });
  return (
    <Card withBorder radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (valid) create.mutate();
        }}
      >
        <WriteFieldset>
          <Stack>
            <Title order={2} size="h4">
              {t('music.newClass')}
            </Title>
            <Group align="flex-start" grow>
              <TextInput
                label={t('music.name')}
                description={t('music.nameHelp')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={touched && !valid ? t('music.nameError') : undefined}
              />
              <Select
                label={t('music.order')}
                data={MUSIC_PLAY_ORDERS.map((o) => ({ value: o, label: t(`music.orders.${o}`) }))}
                value={order}
                allowDeselect={false}
                onChange={(v) => setOrder((v as MusicPlayOrder | null) ?? 'alpha')}
              />
            </Group>
            <Group>
              <Button type="submit" leftSection={<IconPlus size={16} />} loading={create.isPending}>
                {t('music.create')}
              </Button>
            </Group>
          </Stack>
        </WriteFieldset>
      </form>
    </Card>
  );
}

function Player({ cls, file }: { cls: MusicClass; file: MusicFile }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const load = useMutation({
    mutationFn: () => musicApi.audio(cls.id, file.id),
    onSuccess: (blob) => setUrl(URL.createObjectURL(blob)),
    onError: (e) => notifyError(t('music.listenFailed'), e),
  });
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (url) {
    // biome-ignore lint/a11y/useMediaCaption: music has no caption track; its name is the label
    return <audio controls autoPlay src={url} aria-label={t('music.player', { name: file.name })} />;
  }
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconPlayerPlay size={14} />}
      loading={load.isPending}
      onClick={() => load.mutate()}
    >
      {t('music.listen')}
      <VisuallyHidden>{` ${file.name}`}</VisuallyHidden>
    </Button>
  );
}

function UploadRow({ cls, onUploaded }: { cls: MusicClass; onUploaded: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const tooLarge = file !== null && file.size > RECORDING_UPLOAD_MAX_BYTES;
  const upload = useMutation({
    mutationFn: () => musicApi.upload(cls.id, file as File),
    onSuccess: () => {
      notifySuccess(t('music.uploaded', { name: file?.name ?? '' }));
      setFile(null);
      onUploaded();
    },
    onError: (e) => notifyError(t('music.uploadFailed'), e),
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (file && !tooLarge) upload.mutate();
      }}
    >
      <WriteFieldset>
        <Group align="flex-end">
          <FileInput
            label={t('music.file', { name: cls.name })}
            description={t('music.fileHelp', { mb: RECORDING_UPLOAD_MAX_BYTES / 1024 / 1024 })}
            accept=".wav,.mp3,.ogg,audio/wav,audio/mpeg,audio/ogg"
            value={file}
            clearable
            onChange={setFile}
            error={tooLarge ? t('music.tooLarge', { mb: RECORDING_UPLOAD_MAX_BYTES / 1024 / 1024 }) : undefined}
            data-testid={`music-file-${cls.name}`}
            style={{ flex: 1 }}
          />
          <Button type="submit" leftSection={<IconUpload size={16} />} loading={upload.isPending} disabled={!file}>
            {t('music.upload')}
          </Button>
        </Group>
      </WriteFieldset>
    </form>
  );
}

function ClassCard({ cls, reload }: { cls: MusicClass; reload: () => void }) {
  const { t } = useTranslation();
  const setOrder = useMutation({
    mutationFn: (order: MusicPlayOrder) => musicApi.update(cls.id, { name: cls.name, play_order: order }),
    onSuccess: () => {
      notifySuccess(t('music.saved'));
      reload();
    },
    onError: (e) => notifyError(t('music.saveFailed'), e),
  });
  const remove = useMutation({
    mutationFn: () => musicApi.remove(cls.id),
    onSuccess: () => {
      notifySuccess(t('music.deleted', { name: cls.name }));
      reload();
    },
    onError: (e) => notifyError(t('music.deleteFailed'), e),
  });
  const removeFile = useMutation({
    mutationFn: (f: MusicFile) => musicApi.removeFile(cls.id, f.id),
    onSuccess: (_, f) => {
      notifySuccess(t('music.fileDeleted', { name: f.name }));
      reload();
    },
    onError: (e) => notifyError(t('music.deleteFailed'), e),
  });
  return (
    <Card withBorder radius="md" data-testid={`music-class-${cls.name}`}>
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={2} size="h4">
              {cls.builtin ? t('music.defaultTitle') : cls.name}
            </Title>
            <Text size="sm" c="dimmed">
              {t('music.usedBy')}: {cls.used_by.length ? cls.used_by.join(', ') : t('music.nobody')}
            </Text>
          </Stack>
          {!cls.builtin && (
            <Group align="flex-end">
              <WriteFieldset>
                <Select
                  label={t('music.order')}
                  data={MUSIC_PLAY_ORDERS.map((o) => ({ value: o, label: t(`music.orders.${o}`) }))}
                  value={cls.play_order}
                  allowDeselect={false}
                  onChange={(v) => v && v !== cls.play_order && setOrder.mutate(v as MusicPlayOrder)}
                  w={200}
                />
              </WriteFieldset>
              <DeleteButton
                label={t('music.deleteClass')}
                title={t('music.deleteTitle')}
                message={t('music.deleteConfirm', { name: cls.name })}
                loading={remove.isPending}
                onConfirm={() => remove.mutate()}
              />
            </Group>
          )}
        </Group>
        {cls.builtin ? (
          <Text>{t('music.defaultText')}</Text>
        ) : (
          <>
            {cls.files.length === 0 ? (
              <Text c="dimmed">{t('music.noFiles')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={520}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('music.fileName')}</Table.Th>
                      <Table.Th>{t('music.length')}</Table.Th>
                      <Table.Th>{t('music.listen')}</Table.Th>
                      <Table.Th>{t('music.actions')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {cls.files.map((f) => (
                      <Table.Tr key={f.id} data-testid={`music-file-row-${f.name}`}>
                        <Table.Td>{f.name}</Table.Td>
                        <Table.Td>{seconds(f.duration_ms)}</Table.Td>
                        <Table.Td>
                          <Player cls={cls} file={f} />
                        </Table.Td>
                        <Table.Td>
                          <DeleteButton
                            label={t('music.deleteFile')}
                            title={t('music.deleteFileTitle')}
                            message={t('music.deleteFileConfirm', { name: f.name })}
                            onConfirm={() => removeFile.mutate(f)}
                          />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <UploadRow cls={cls} onUploaded={reload} />
          </>
        )}
      </Stack>
    </Card>
  );
}

/** Call flows › Music on hold: the distribution's class and the uploaded ones, with their files. */
export function MusicPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: musicApi.list });
  const reload = () => void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('music.title')}
      </Title>
      <Text c="dimmed">{t('music.intro')}</Text>
      <NewClassCard onCreated={reload} />
      {!list.data ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : (
        list.data.map((cls) => <ClassCard key={cls.name} cls={cls} reload={reload} />)
      )}
    </Stack>
  );
}

/** The classes a queue, route, trunk or room may choose, for their selects (default first). */
export function useMusicChoices(): { value: string; label: string }[] {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: musicApi.list });
  return (list.data ?? [{ name: 'default', builtin: true }]).map((c) => ({
    value: c.name,
    label: c.builtin ? t('music.defaultChoice') : c.name,
  }));
}
