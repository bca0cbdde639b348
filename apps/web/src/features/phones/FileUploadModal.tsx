import { isValidUploadName, type ProvisioningFileType } from '@centralino/contract';
import {
  Anchor,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { formatFileSize } from './fileSize.ts';
import { phonesApi, uploadFile } from './phonesApi.ts';

/** The model variables that name an uploaded file, and the collection each one picks from. */
export const FILE_VARIABLES = {
  firmware_file: 'firmware',
  ringtone_file: 'ringtones',
  background_file: 'backgrounds',
  screensaver_file: 'screensavers',
} as const satisfies Record<string, ProvisioningFileType>;
export type FileVariable = keyof typeof FILE_VARIABLES;

interface Upload {
  id: number;
  name: string;
  size: number;
  progress: number;
}

function UploadedFiles({ collection }: { collection: ProvisioningFileType }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const files = useQuery({ queryKey: ['phone-files', collection], queryFn: () => phonesApi.files(collection) });
  const remove = useMutation({
    mutationFn: (name: string) => phonesApi.removeFile(collection, name),
    onSuccess: (_data, name) => {
      notifySuccess(t('phones.files.removed', { name }));
      return queryClient.invalidateQueries({ queryKey: ['phone-files', collection] });
    },
    onError: (e) => notifyError(t('phones.files.removeFailed'), e),
  });
  if (!files.data) {
    return files.isError ? (
      <Text c="red" size="sm">
        {t('phones.files.loadFailed')}
      </Text>
    ) : (
      <Loader size="sm" aria-label={t('app.loading')} />
    );
  }
  if (files.data.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="uploaded-files">
        {t('phones.files.none')}
      </Text>
    );
  }
  return (
    <Table data-testid="uploaded-files" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('phones.files.name')}</Table.Th>
          <Table.Th>{t('phones.files.size')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {files.data.map((file) => (
          <Table.Tr key={file.name}>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {file.name}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatFileSize(file.size, i18n.language)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Button
                size="xs"
                color="red"
                variant="subtle"
                leftSection={<IconTrash size={14} />}
                aria-label={t('phones.files.removeFile', { name: file.name })}
                loading={remove.isPending && remove.variables === file.name}
                onClick={() => remove.mutate(file.name)}
              >
                {t('phones.files.remove')}
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Firmware, ringtones, backgrounds and screensavers phones download: drop or browse files to upload them
 * (each with its progress), and remove uploaded ones.
 */
export function FileUploadModal({
  opened,
  onClose,
  variable = 'ringtone_file',
}: {
  opened: boolean;
  onClose: () => void;
  /** The collection shown first, by the variable that uses it. */
  variable?: FileVariable;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<FileVariable>(variable);
  const [dragging, setDragging] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const aborts = useRef(new Map<number, () => void>());
  const collection = FILE_VARIABLES[current];

  useEffect(() => {
    if (opened) setCurrent(variable);
  }, [opened, variable]);
  // Closing the page stops uploads still running rather than leaving them to finish unseen.
  useEffect(() => () => aborts.current.forEach((abort) => void abort()), []);

  const start = (files: readonly File[]) => {
    for (const file of files) {
      if (!isValidUploadName(file.name)) {
        notifyError(t('phones.files.uploadFailed'), new Error(t('phones.files.invalidName', { name: file.name })));
        continue;
      }
      const id = nextId.current++;
      const target = collection;
      setUploads((list) => [...list, { id, name: file.name, size: file.size, progress: 0 }]);
      const upload = uploadFile(target, file, (progress) =>
        setUploads((list) => list.map((u) => (u.id === id ? { ...u, progress } : u))),
      );
      aborts.current.set(id, upload.abort);
      upload.done
        .then(async () => {
          notifySuccess(t('phones.files.uploaded'), file.name);
          await queryClient.invalidateQueries({ queryKey: ['phone-files', target] });
        })
        .catch((error: unknown) => {
          if (!(error instanceof DOMException && error.name === 'AbortError')) {
            notifyError(t('phones.files.uploadFailed'), error);
          }
        })
        .finally(() => {
          aborts.current.delete(id);
          setUploads((list) => list.filter((u) => u.id !== id));
        });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    start([...event.dataTransfer.files]);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t(`phones.files.titles.${current}`)} size="lg">
      <Stack gap="md">
        <SegmentedControl
          value={current}
          onChange={(value) => setCurrent(value as FileVariable)}
          data={Object.keys(FILE_VARIABLES).map((value) => ({ value, label: t(`phones.files.kinds.${value}`) }))}
        />
        <Text size="sm" c="dimmed">
          {t(`phones.files.subtitles.${current}`)}
        </Text>
        <Box
          data-testid="file-drop"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          p="lg"
          style={{
            border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'default-border'})`,
            borderRadius: 'var(--mantine-radius-md)',
            textAlign: 'center',
          }}
        >
          <Stack gap={4} align="center">
            <IconUpload size={28} />
            {dragging ? (
              <Text size="sm">{t('phones.files.dropNow')}</Text>
            ) : (
              <Text size="sm">
                {t('phones.files.drop')}{' '}
                <Anchor component="button" type="button" size="sm" onClick={() => input.current?.click()}>
                  {t('phones.files.browse')}
                </Anchor>
              </Text>
            )}
          </Stack>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="file-input"
            onChange={(event) => {
              start([...(event.currentTarget.files ?? [])]);
              event.currentTarget.value = '';
            }}
          />
        </Box>
        {uploads.length > 0 && (
          <Stack gap="xs" data-testid="uploading-files">
            <Text fw={600} size="sm">
              {t('phones.files.uploading')}
            </Text>
            {uploads.map((u) => (
              <Stack key={u.id} gap={4}>
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="xs" wrap="nowrap">
                    <Loader size="xs" />
                    <Text size="sm">{u.name}</Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {formatFileSize(u.size, i18n.language)}
                  </Text>
                </Group>
                <Progress value={u.progress} size="sm" aria-label={t('phones.files.progress', { name: u.name })} />
              </Stack>
            ))}
          </Stack>
        )}
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('phones.files.uploadedTitle')}
          </Text>
          {opened && <UploadedFiles collection={collection} />}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
