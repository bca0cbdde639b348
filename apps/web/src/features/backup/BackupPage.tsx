import {
  BACKUP_UPLOAD_MAX_BYTES,
  type BackupSchedule,
  type BackupStatus,
  type BackupSummary,
  backupScheduleSchema,
} from '@centralino/contract';
import {
  Alert,
  Button,
  Card,
  Center,
  FileInput,
  Group,
  List,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDownload, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess, reported } from '../../components/notify.ts';
import { CredentialButton, WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { backupApi } from './backupApi.ts';
import {
  dismissRestoredNotice,
  type RestoredNotice,
  readRestoredNotice,
  saveRestoredNotice,
} from './restoredNotice.ts';

function bytes(n: number, lang: string): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(lang, { maximumFractionDigits: unit ? 1 : 0 })} ${units[unit]}`;
}

function when(iso: string, lang: string): string {
  return new Date(iso).toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}

function DownloadCard() {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: () => backupApi.download(),
    onSuccess: (name) => notifySuccess(t('backup.downloaded'), name),
    onError: (e) => notifyError(t('backup.downloadFailed'), e),
  });
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('backup.downloadTitle')}
        </Title>
        <Text size="sm">{t('backup.downloadHelp')}</Text>
        <Group>
          <CredentialButton
            leftSection={<IconDownload size={18} />}
            loading={download.isPending}
            onClick={() => download.mutate()}
          >
            {t('backup.download')}
          </CredentialButton>
        </Group>
      </Stack>
    </Card>
  );
}

/** Stays on the backup screen after a restore, also across a reload, until the administrator closes it. */
function RestoredAlert({ notice, onClose }: { notice: RestoredNotice; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Alert
      color="teal"
      icon={<IconCircleCheck />}
      title={t('backup.restored')}
      withCloseButton
      closeButtonLabel={t('common.close')}
      onClose={onClose}
      data-testid="backup-restored"
    >
      <Stack gap={4}>
        <Text size="sm">
          {t('backup.restoredWhen', {
            created: when(notice.createdAt, i18n.language),
            restored: when(notice.restoredAt, i18n.language),
          })}
        </Text>
        <Text size="sm">{t('backup.restoredDetail', { rows: notice.rows, files: notice.files })}</Text>
      </Stack>
    </Alert>
  );
}

function Summary({
  summary,
  onDone,
  onRestored,
}: {
  summary: BackupSummary;
  onDone: () => void;
  onRestored: (notice: RestoredNotice) => void;
}) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const restore = useMutation({
    mutationFn: () => backupApi.restore(summary.id),
    onSuccess: (result) => {
      onRestored({
        createdAt: summary.createdAt,
        restoredAt: new Date().toISOString(),
        rows: result.rows,
        files: result.files,
      });
      // Every screen's data changed.
      void client.invalidateQueries();
      onDone();
    },
    onError: (e) => notifyError(t('backup.restoreFailed'), e),
  });
  const discard = useMutation({
    mutationFn: () => backupApi.discard(summary.id),
    onSettled: onDone,
  });
  const confirm = async () => {
    const ok = await confirmAction({
      title: t('backup.confirmTitle'),
      message: t('backup.confirmBody', { date: when(summary.createdAt, i18n.language) }),
      confirmLabel: t('backup.restore'),
      danger: true,
    });
    if (ok) restore.mutate();
  };
  const rows = summary.tables.reduce((sum, table) => sum + table.rows, 0);
  return (
    <Stack gap="sm" data-testid="backup-summary">
      <Title order={3} size="h5">
        {t('backup.summaryTitle')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Text size="sm">
          <strong>{t('backup.version')}:</strong> {summary.version}
        </Text>
        <Text size="sm">
          <strong>{t('backup.createdAt')}:</strong> {when(summary.createdAt, i18n.language)}
        </Text>
        <Text size="sm">
          <strong>{t('backup.level')}:</strong> {summary.migration}
        </Text>
      </SimpleGrid>
      {summary.older && (
        <Alert color="blue" icon={<IconInfoCircle />}>
          {t('backup.older')}
        </Alert>
      )}
      <Text size="sm">{t('backup.totals', { tables: summary.tables.length, rows })}</Text>
      <Table striped withTableBorder>
        <Table.Caption>{t('backup.tablesCaption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('backup.table')}</Table.Th>
            <Table.Th scope="col">{t('backup.rows')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.tables
            .filter((table) => table.rows > 0)
            .map((table) => (
              <Table.Tr key={table.name}>
                <Table.Td>{table.name}</Table.Td>
                <Table.Td>{table.rows}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      <List size="sm" aria-label={t('backup.filesCaption')}>
        {summary.files.map((area) => (
          <List.Item key={area.area}>
            {t(`backup.areas.${area.area.replace('/', '_')}`)}:{' '}
            {t('backup.fileCount', { count: area.count, size: bytes(area.bytes, i18n.language) })}
          </List.Item>
        ))}
      </List>
      <Alert color="yellow" icon={<IconAlertTriangle />} title={t('backup.whatHappensTitle')}>
        <Stack gap={4}>
          <Text size="sm">{t('backup.whatHappens')}</Text>
          <Text size="sm">{t('backup.signedIn')}</Text>
        </Stack>
      </Alert>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => discard.mutate()} disabled={restore.isPending}>
          {t('common.cancel')}
        </Button>
        <WriteButton color="red" onClick={confirm} loading={restore.isPending}>
          {t('backup.restore')}
        </WriteButton>
      </Group>
    </Stack>
  );
}

function RestoreCard() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [summary, setSummary] = useState<BackupSummary | null>(null);
  const [restored, setRestored] = useState<RestoredNotice | null>(readRestoredNotice);
  const upload = useMutation({
    mutationFn: (f: File) => backupApi.upload(f),
    onSuccess: setSummary,
    onError: (e) => notifyError(t('backup.checkFailed'), e),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('backup.restoreTitle')}
        </Title>
        {restored && (
          <RestoredAlert
            notice={restored}
            onClose={() => {
              dismissRestoredNotice();
              setRestored(null);
            }}
          />
        )}
        {summary ? (
          <Summary
            summary={summary}
            onRestored={(notice) => {
              saveRestoredNotice(notice);
              setRestored(notice);
            }}
            onDone={() => {
              setSummary(null);
              setFile(null);
            }}
          />
        ) : (
          <form onSubmit={submit} noValidate>
            <WriteFieldset>
              <Stack gap="sm">
                <Text size="sm">{t('backup.restoreHelp')}</Text>
                <FileInput
                  label={t('backup.file')}
                  description={t('backup.fileHelp', { gb: BACKUP_UPLOAD_MAX_BYTES / 1024 ** 3 })}
                  accept=".tar.gz,.tgz,application/gzip"
                  value={file}
                  clearable
                  onChange={setFile}
                  data-testid="backup-file"
                />
                <Group>
                  <Button type="submit" disabled={!file} loading={upload.isPending}>
                    {t('backup.check')}
                  </Button>
                </Group>
              </Stack>
            </WriteFieldset>
          </form>
        )}
      </Stack>
    </Card>
  );
}

function ScheduleForm({ status }: { status: BackupStatus }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [draft, setDraft] = useState<BackupSchedule>(status.schedule);
  const [touched, setTouched] = useState(false);
  const parsed = backupScheduleSchema.safeParse(draft);
  const problem = (field: 'time' | 'keep') =>
    touched && !parsed.success && parsed.error.issues.some((i) => i.path[0] === field)
      ? t(`backup.${field}Error`)
      : undefined;
  const save = useMutation({
    mutationFn: (body: BackupSchedule) => backupApi.setSchedule(body),
    onSuccess: (next) => {
      client.setQueryData(['backup', 'status'], next);
      notifySuccess(t('backup.scheduleSaved'));
    },
    onError: (e) => notifyError(t('backup.scheduleFailed'), e),
  });
  const off = status.folder === null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (parsed.success) save.mutate(parsed.data);
  };
  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('backup.scheduleTitle')}
        </Title>
        {off ? (
          <Alert color="blue" icon={<IconInfoCircle />}>
            {t('backup.noFolder')}
          </Alert>
        ) : (
          <Text size="sm">{t('backup.folder', { folder: status.folder })}</Text>
        )}
        <form onSubmit={submit} noValidate>
          <WriteFieldset>
            <Stack gap="sm">
              <Switch
                label={t('backup.enabled')}
                checked={draft.enabled}
                disabled={off}
                onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
              />
              <Group align="flex-start">
                <TextInput
                  label={t('backup.time')}
                  description={t('backup.timeHelp')}
                  value={draft.time}
                  disabled={off}
                  onChange={(e) => setDraft({ ...draft, time: e.currentTarget.value })}
                  error={problem('time')}
                  w={200}
                />
                <NumberInput
                  label={t('backup.keep')}
                  description={t('backup.keepHelp')}
                  value={draft.keep}
                  min={1}
                  max={365}
                  disabled={off}
                  onChange={(v) => setDraft({ ...draft, keep: typeof v === 'number' ? v : Number.NaN })}
                  error={problem('keep')}
                  w={200}
                />
              </Group>
              <Group>
                <Button type="submit" disabled={off} loading={save.isPending}>
                  {t('backup.saveSchedule')}
                </Button>
              </Group>
            </Stack>
          </WriteFieldset>
        </form>
        {status.lastRun && (
          <Text size="sm" data-testid="backup-last-run">
            {status.lastRun.error
              ? t('backup.lastRunFailed', {
                  date: when(status.lastRun.startedAt, i18n.language),
                  error: status.lastRun.error,
                })
              : t('backup.lastRun', { date: when(status.lastRun.startedAt, i18n.language) })}
          </Text>
        )}
        {!off && (
          <Table withTableBorder>
            <Table.Caption>{t('backup.storedCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('backup.name')}</Table.Th>
                <Table.Th scope="col">{t('backup.createdAt')}</Table.Th>
                <Table.Th scope="col">{t('backup.size')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {status.stored.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>{t('backup.noneStored')}</Table.Td>
                </Table.Tr>
              ) : (
                status.stored.map((s) => (
                  <Table.Tr key={s.name}>
                    <Table.Td>{s.name}</Table.Td>
                    <Table.Td>{when(s.createdAt, i18n.language)}</Table.Td>
                    <Table.Td>{bytes(s.bytes, i18n.language)}</Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/** /admin/backup: download a backup, restore one after its summary and a confirmation, schedule daily backups. */
export function BackupPage() {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: ['backup', 'status'],
    queryFn: reported(t('backup.statusFailed'), backupApi.status),
  });
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('backup.title')}
      </Title>
      <DownloadCard />
      <RestoreCard />
      {status.data ? (
        <ScheduleForm status={status.data} />
      ) : (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      )}
    </Stack>
  );
}
