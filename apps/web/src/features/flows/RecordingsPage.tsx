import {
  RECORDING_FEATURE_CODE,
  RECORDING_UPLOAD_MAX_BYTES,
  type Recording,
  recordingPatchSchema,
} from '@centralino/contract';
import { Button, Card, Center, FileInput, Group, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPencil, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { FlowFormModal, FlowNameInput } from './FlowFormModal.tsx';
import { flowsApi } from './flowsApi.ts';

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function UploadCard({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const tooLarge = file !== null && file.size > RECORDING_UPLOAD_MAX_BYTES;
  const nameOk = recordingPatchSchema.safeParse({ displayname: name, description }).success;
  const upload = useMutation({
    mutationFn: () => flowsApi.upload(file as File, name, description),
    onSuccess: () => {
      notifySuccess(t('flows.recordings.uploaded', { name }));
      setFile(null);
      setName('');
      setDescription('');
      setTouched(false);
      onUploaded();
    },
    onError: (e) => notifyError(t('flows.recordings.uploadFailed'), e),
  });
  return (
    <Card withBorder radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (file && !tooLarge && nameOk) upload.mutate();
        }}
      >
        <WriteFieldset>
          <Stack>
            <Title order={2} size="h4">
              {t('flows.recordings.upload')}
            </Title>
            <FileInput
              label={t('flows.recordings.file')}
              description={t('flows.recordings.fileHelp', { mb: RECORDING_UPLOAD_MAX_BYTES / 1024 / 1024 })}
              accept=".wav,.mp3,.ogg,audio/wav,audio/mpeg,audio/ogg"
              value={file}
              clearable
              onChange={(f) => {
                setFile(f);
                if (f && !name) setName(f.name.replace(/\.[^.]*$/, '').slice(0, 80));
              }}
              error={
                tooLarge
                  ? t('flows.recordings.tooLarge', { mb: RECORDING_UPLOAD_MAX_BYTES / 1024 / 1024 })
                  : touched && !file
                    ? t('flows.recordings.chooseFile')
                    : undefined
              }
              data-testid="recording-file"
            />
            <TextInput
              label={t('flows.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={touched && !nameOk ? t('flows.nameError') : undefined}
            />
            <TextInput
              label={t('flows.description')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
            />
            <Group>
              <Button type="submit" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                {t('flows.recordings.uploadButton')}
              </Button>
            </Group>
          </Stack>
        </WriteFieldset>
      </form>
    </Card>
  );
}

function RenameModal({
  recording,
  onClose,
  onSaved,
}: {
  recording: Recording;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(recording.displayname);
  const [description, setDescription] = useState(recording.description);
  const parsed = recordingPatchSchema.safeParse({ displayname: name, description });
  const save = useMutation({
    mutationFn: () => flowsApi.renameRecording(recording.id, { displayname: name, description }),
    onSuccess: onSaved,
    onError: (e) => notifyError(t('flows.saveFailed'), e),
  });
  return (
    <FlowFormModal
      title={t('flows.recordings.renameTitle')}
      onClose={onClose}
      onSubmit={() => parsed.success && save.mutate()}
      saving={save.isPending}
    >
      <FlowNameInput value={name} onChange={setName} invalid={!parsed.success} />
      <TextInput
        label={t('flows.description')}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
      />
    </FlowFormModal>
  );
}

/** Plays a recording: its audio is fetched with the sign-in headers and handed to the player as a blob. */
function Player({ recording }: { recording: Recording }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const load = useMutation({
    mutationFn: () => flowsApi.audio(recording.id),
    onSuccess: (blob) => setUrl(URL.createObjectURL(blob)),
    onError: (e) => notifyError(t('flows.recordings.listenFailed'), e),
  });
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  if (url) {
    return (
      // biome-ignore lint/a11y/useMediaCaption: recorded prompts have no caption track; their name is the label
      <audio controls autoPlay src={url} aria-label={t('flows.recordings.player', { name: recording.displayname })} />
    );
  }
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconPlayerPlay size={14} />}
      loading={load.isPending}
      onClick={() => load.mutate()}
    >
      {t('flows.recordings.listen')}
    </Button>
  );
}

/** Call flows › Recordings: upload, listen, rename, delete. */
export function RecordingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['recordings'], queryFn: flowsApi.recordings });
  const [renaming, setRenaming] = useState<Recording | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: ['recordings'] });
  const remove = useMutation({
    mutationFn: (r: Recording) => flowsApi.removeRecording(r.id),
    onSuccess: (_, r) => {
      notifySuccess(t('flows.deleted', { name: r.displayname }));
      void reload();
    },
    onError: (e) => notifyError(t('flows.deleteFailed'), e),
  });

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('flows.recordings.title')}
      </Title>
      <Text c="dimmed">{t('flows.recordings.intro')}</Text>
      <Text c="dimmed">{t('flows.recordings.fromPhone', { code: RECORDING_FEATURE_CODE })}</Text>
      <UploadCard onUploaded={() => void reload()} />
      {!list.data ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : list.data.length === 0 ? (
        <Text c="dimmed">{t('flows.recordings.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table data-testid="recordings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('flows.name')}</Table.Th>
                <Table.Th>{t('flows.recordings.length')}</Table.Th>
                <Table.Th>{t('flows.recordings.phoneCode')}</Table.Th>
                <Table.Th>{t('flows.usedBy')}</Table.Th>
                <Table.Th>{t('flows.recordings.listen')}</Table.Th>
                <Table.Th>{t('flows.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((r) => (
                <Table.Tr key={r.id} data-testid={`recording-${r.displayname}`}>
                  <Table.Td>
                    <Text fw={600}>{r.displayname}</Text>
                    {r.description && (
                      <Text size="sm" c="dimmed">
                        {r.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{seconds(r.duration_ms)}</Table.Td>
                  <Table.Td>{`${RECORDING_FEATURE_CODE}${r.id}`}</Table.Td>
                  <Table.Td>{r.used_by.length ? r.used_by.join(', ') : '—'}</Table.Td>
                  <Table.Td>
                    <Player recording={r} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <WriteButton
                        variant="default"
                        size="xs"
                        leftSection={<IconPencil size={14} />}
                        onClick={() => setRenaming(r)}
                      >
                        {t('flows.rename')}
                      </WriteButton>
                      <DeleteButton
                        label={t('flows.delete')}
                        title={t('flows.deleteTitle')}
                        message={t('flows.deleteConfirm', { name: r.displayname })}
                        onConfirm={() => remove.mutate(r)}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {renaming && (
        <RenameModal
          recording={renaming}
          onClose={() => setRenaming(null)}
          onSaved={() => {
            setRenaming(null);
            notifySuccess(t('flows.saved'));
            void reload();
          }}
        />
      )}
    </Stack>
  );
}
