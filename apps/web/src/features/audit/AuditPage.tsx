import { type AuditEntry, type AuditQuery, auditSettingsSchema } from '@centralino/contract';
import {
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../api/download.ts';
import { notifyError, notifySuccess, reported } from '../../components/notify.ts';
import { WriteFieldset } from '../../components/WriteControls.tsx';
import { auditApi, auditSearch } from '../accounts/api.ts';

const PAGE_SIZE = 50;

/** A date field (YYYY-MM-DD) as milliseconds: the start of the day, or its end for the "to" field. */
function dayBound(value: string, end: boolean): number | undefined {
  if (!value) return undefined;
  const at = new Date(`${value}T${end ? '23:59:59.999' : '00:00:00'}`).getTime();
  return Number.isNaN(at) ? undefined : at;
}

/** Downloads the CSV of the search. */
function downloadCsv(query: AuditQuery): Promise<void> {
  return downloadFile(
    `/api/admin/audit/export?${auditSearch(query)}`,
    `audit-${new Date().toISOString().slice(0, 10)}.csv`,
  );
}

function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes === null || entry.changes === undefined) return null;
  return (
    // Scrollable, so reachable with Tab (WCAG 2.1.1).
    <Code block tabIndex={0} style={{ maxWidth: 420, maxHeight: 160, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
      {JSON.stringify(entry.changes, null, 1)}
    </Code>
  );
}

function Retention() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: ['audit-settings'], queryFn: auditApi.settings });
  const [days, setDays] = useState<number | string>('');
  useEffect(() => {
    if (settings.data) setDays(settings.data.retention_days);
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () => auditApi.saveSettings(auditSettingsSchema.parse({ retention_days: Number(days) })),
    onSuccess: () => notifySuccess(t('audit.retentionSaved')),
    onError: (error) => notifyError(t('audit.retentionFailed'), error),
  });
  const valid = auditSettingsSchema.safeParse({ retention_days: Number(days) }).success;
  return (
    <WriteFieldset>
      <Group align="flex-end">
        <NumberInput label={t('audit.retention')} value={days} onChange={setDays} min={1} max={3650} w={220} />
        <Button variant="light" onClick={() => save.mutate()} disabled={!valid} loading={save.isPending}>
          {t('audit.retentionSave')}
        </Button>
      </Group>
    </WriteFieldset>
  );
}

/** /admin/audit: the audit log, searched and paged on the server, exported as CSV. */
export function AuditPage() {
  const { t, i18n: tr } = useTranslation();
  const [form, setForm] = useState({ q: '', user: '', object: '', from: '', to: '' });
  const [query, setQuery] = useState<AuditQuery>({ page: 1, pageSize: PAGE_SIZE });
  const page = useQuery({
    queryKey: ['audit', query],
    queryFn: reported(t('audit.loadFailed'), () => auditApi.search(query)),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery({
      q: form.q || undefined,
      user: form.user || undefined,
      object: form.object || undefined,
      from: dayBound(form.from, false),
      to: dayBound(form.to, true),
      page: 1,
      pageSize: PAGE_SIZE,
    });
  };
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  const total = page.data?.total ?? 0;
  const exportCsv = useMutation({
    mutationFn: () => downloadCsv({ ...query, page: undefined, pageSize: undefined }),
    onError: (error) => notifyError(t('audit.loadFailed'), error),
  });
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('audit.title')}
      </Title>
      <Text c="dimmed">{t('audit.intro')}</Text>
      <Card withBorder radius="md">
        <form onSubmit={submit} aria-label={t('audit.search')}>
          <Group align="flex-end" wrap="wrap">
            <TextInput label={t('audit.search')} {...field('q')} />
            <TextInput label={t('audit.user')} {...field('user')} w={140} />
            <TextInput label={t('audit.object')} {...field('object')} />
            <TextInput type="date" label={t('audit.from')} {...field('from')} w={160} />
            <TextInput type="date" label={t('audit.to')} {...field('to')} w={160} />
            <Button type="submit">{t('audit.apply')}</Button>
            <Button variant="light" onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
              {t('audit.export')}
            </Button>
          </Group>
        </form>
      </Card>
      <Text size="sm" role="status">
        {t('audit.total', { count: total })}
      </Text>
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('audit.time')}</Table.Th>
            <Table.Th>{t('audit.user')}</Table.Th>
            <Table.Th>{t('audit.address')}</Table.Th>
            <Table.Th>{t('audit.action')}</Table.Th>
            <Table.Th>{t('audit.request')}</Table.Th>
            <Table.Th>{t('audit.changes')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page.data?.rows.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>{new Date(entry.at).toLocaleString(tr.language)}</Table.Td>
              <Table.Td>{entry.actor}</Table.Td>
              <Table.Td>{entry.address}</Table.Td>
              <Table.Td>{t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {entry.method} {entry.path}
                </Text>
              </Table.Td>
              <Table.Td>
                <Changes entry={entry} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page.data && total === 0 && <Text>{t('audit.empty')}</Text>}
      {total > PAGE_SIZE && (
        <Pagination
          total={Math.ceil(total / PAGE_SIZE)}
          value={Number(query.page ?? 1)}
          onChange={(p) => setQuery({ ...query, page: p })}
          getControlProps={(control) => ({ 'aria-label': `${t('audit.page')} ${control}` })}
          getItemProps={(p) => ({ 'aria-label': `${t('audit.page')} ${p}` })}
        />
      )}
      <Retention />
    </Stack>
  );
}
