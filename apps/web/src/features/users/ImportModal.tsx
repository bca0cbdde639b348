import { type CsvImportStatus, type CsvPreview, IMPORT_POLL_MS } from '@centralino/contract';
import { Alert, Badge, Button, FileInput, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usersApi } from './usersApi.ts';

/** Rows of the preview table; the counts above it cover the whole file. */
const PREVIEW_ROWS = 200;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

const actionColor = { create: 'teal', update: 'blue', unchanged: 'gray', reject: 'red' } as const;

/**
 * CSV import: pick a file, see what it would do, import it and follow the job (polled every 5 s). The result
 * stays until the administrator closes it, also after a complete import (the original closed it after 1 s,
 * before anyone could read what was created).
 */
export function ImportModal({
  opened,
  onClose,
  onImported,
}: {
  opened: boolean;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [formatError, setFormatError] = useState(false);
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [status, setStatus] = useState<CsvImportStatus | null>(null);
  const [running, setRunning] = useState(false);

  const reset = () => {
    setFile(null);
    setFormatError(false);
    setDataUrl(null);
    setPreview(null);
    setStatus(null);
    setRunning(false);
  };
  const close = () => {
    if (running) return;
    reset();
    onClose();
  };

  const check = useMutation({
    mutationFn: async (chosen: File) => {
      const url = await readAsDataUrl(chosen);
      setDataUrl(url);
      return usersApi.previewCsv(url);
    },
    onSuccess: setPreview,
  });

  const start = useMutation({
    mutationFn: () => usersApi.importCsv(dataUrl as string),
    onSuccess: () => {
      setRunning(true);
      setStatus({ result: 0, created: 0, updated: 0, failures: [] });
    },
  });

  // Poll now, then every 5 s, until 100 or -1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: polling starts and stops with `running` only
  useEffect(() => {
    if (!running) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const poll = async () => {
      let next: CsvImportStatus;
      try {
        next = await usersApi.importStatus();
      } catch {
        next = { result: -1, created: 0, updated: 0, failures: [] };
      }
      if (cancelled) return;
      setStatus(next);
      if (next.result === 100 || next.result === -1) {
        setRunning(false);
        onImported();
        return;
      }
      timer = setTimeout(poll, IMPORT_POLL_MS);
    };
    void poll();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [running]);

  const choose = (chosen: File | null) => {
    reset();
    setFile(chosen);
    if (!chosen) return;
    if (!chosen.name.toLowerCase().endsWith('.csv')) {
      setFormatError(true);
      return;
    }
    check.mutate(chosen);
  };

  const importable = preview ? preview.create + preview.update : 0;

  return (
    <Modal opened={opened} onClose={close} title={t('csv.title')} size="xl">
      <Stack>
        {!status && (
          <>
            <Text size="sm" c="dimmed">
              {t('csv.help')}
            </Text>
            <FileInput
              label={t('csv.file')}
              placeholder={t('csv.choose')}
              accept=".csv,text/csv"
              leftSection={<IconFileSpreadsheet size={16} />}
              value={file}
              onChange={choose}
              clearable
            />
          </>
        )}
        {formatError && (
          <Alert color="red" title={t('csv.formatError')}>
            {t('csv.mustBeCsv')}
          </Alert>
        )}
        {check.error && (
          <Alert color="red" title={t('csv.formatError')}>
            {check.error.message}
          </Alert>
        )}
        {preview && !status && (
          <Stack gap="xs" data-testid="csv-preview">
            <Group gap="xs">
              <Badge color="teal">{t('csv.counts.create', { count: preview.create })}</Badge>
              <Badge color="blue">{t('csv.counts.update', { count: preview.update })}</Badge>
              <Badge color="gray">{t('csv.counts.unchanged', { count: preview.unchanged })}</Badge>
              <Badge color="red">{t('csv.counts.reject', { count: preview.reject })}</Badge>
            </Group>
            {/* Focusable and named, so a keyboard user can scroll the rows (axe: scrollable-region-focusable). */}
            <ScrollArea.Autosize mah={320} viewportProps={{ tabIndex: 0, 'aria-label': t('csv.previewLabel') }}>
              <Table striped withTableBorder fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('csv.line')}</Table.Th>
                    <Table.Th>{t('csv.username')}</Table.Th>
                    <Table.Th>{t('csv.fullname')}</Table.Th>
                    <Table.Th>{t('csv.extension')}</Table.Th>
                    <Table.Th>{t('csv.action')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.rows.slice(0, PREVIEW_ROWS).map((row) => (
                    <Table.Tr key={row.line}>
                      <Table.Td>{row.line}</Table.Td>
                      <Table.Td>{row.username}</Table.Td>
                      <Table.Td>{row.fullname}</Table.Td>
                      <Table.Td>{row.extension ?? ''}</Table.Td>
                      <Table.Td>
                        <Badge size="sm" color={actionColor[row.action]}>
                          {t(`csv.actions.${row.action}`)}
                        </Badge>
                        {[...row.errors, ...row.warnings].map((m) => (
                          <Text
                            key={m}
                            size="xs"
                            // Red 6 is 3.6:1 on the striped rows; the light variant's text colour is made to reach 4.5:1.
                            c={row.errors.includes(m) ? 'var(--mantine-color-red-light-color)' : 'dimmed'}
                          >
                            {m}
                          </Text>
                        ))}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
            {preview.rows.length > PREVIEW_ROWS && (
              <Text size="xs" c="dimmed">
                {t('csv.moreRows', { count: preview.rows.length - PREVIEW_ROWS })}
              </Text>
            )}
          </Stack>
        )}
        {status && (
          <Stack gap="xs" data-testid="csv-progress">
            {status.result === -1 || (status.result === 100 && status.failures.length > 0) ? (
              <Alert
                color={status.result === -1 ? 'red' : 'yellow'}
                title={
                  status.result === -1
                    ? t('csv.someFailed')
                    : t('csv.doneWithRefusals', { count: status.refused ?? status.failures.length })
                }
                data-testid="csv-outcome"
              >
                <Stack gap={4}>
                  <Text size="sm">{t('csv.summary', { created: status.created, updated: status.updated })}</Text>
                  <ScrollArea.Autosize mah={240} viewportProps={{ tabIndex: 0, 'aria-label': t('csv.refusedRows') }}>
                    {status.failures.map((f) => (
                      <Text key={`${f.line}-${f.username}`} size="sm">
                        {f.line > 0 ? t('csv.failureLine', { line: f.line, username: f.username }) : ''} {f.message}
                      </Text>
                    ))}
                  </ScrollArea.Autosize>
                </Stack>
              </Alert>
            ) : (
              <>
                <Progress value={status.result} animated={status.result < 100} aria-label={t('csv.progress')} />
                <Text size="sm">
                  {status.result === 100
                    ? t('csv.done', { created: status.created, updated: status.updated })
                    : t('csv.importing', { percent: status.result })}
                </Text>
              </>
            )}
          </Stack>
        )}
        {start.error && (
          <Alert color="red" title={t('csv.someFailed')}>
            {start.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={running}>
            {status ? t('common.close') : t('common.cancel')}
          </Button>
          {!status && (
            <Button disabled={!preview || importable === 0} loading={start.isPending} onClick={() => start.mutate()}>
              {t('csv.import', { count: importable })}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
