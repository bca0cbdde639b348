import {
  type Call,
  type CallFilters,
  type CallResult,
  callDirections,
  callFiltersSchema,
  callResults,
} from '@centralino/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
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
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ShowMore } from '../../components/listParts.tsx';
import { notifyError } from '../../components/notify.ts';
import { callsApi, type DatePreset, filtersOfUrl, formatSeconds, presetRange } from './api.ts';
import { CallDetailModal } from './CallDetailModal.tsx';
import { RecordingPlayer } from './RecordingPlayer.tsx';

const PAGE = 50;
const PRESETS: DatePreset[] = ['today', 'yesterday', 'week', 'last30'];
const RESULT_COLOR: Record<CallResult, string> = {
  answered: 'green',
  missed: 'red',
  busy: 'orange',
  failed: 'gray',
  voicemail: 'blue',
};

type Form = Record<keyof CallFilters, string>;
const EMPTY: Form = { from: '', to: '', direction: '', result: '', extension: '', number: '', trunk: '', queue: '' };

/** A number with the name beside it when one is known. */
function Party({ number, name }: { number: string; name: string }) {
  const { t } = useTranslation();
  if (!number) return <Text c="dimmed">{t('calls.anonymous')}</Text>;
  return (
    <Stack gap={0}>
      <Text size="sm">{name || number}</Text>
      {name && (
        <Text size="xs" c="dimmed">
          {number}
        </Text>
      )}
    </Stack>
  );
}

function CallRow({ call, onOpen }: { call: Call; onOpen: (call: Call) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.Tr>
      <Table.Td>{new Date(call.at).toLocaleString(i18n.language)}</Table.Td>
      <Table.Td>{t(`calls.directions.${call.direction}`)}</Table.Td>
      <Table.Td>
        <Party number={call.caller} name={call.callerName} />
      </Table.Td>
      <Table.Td>
        <Party number={call.called} name={call.calledName} />
      </Table.Td>
      <Table.Td>{call.answeredBy ? <Party number={call.answeredBy} name={call.answeredByName} /> : '—'}</Table.Td>
      <Table.Td>
        {[call.trunk, call.queue && t('calls.queueNamed', { queue: call.queue })].filter(Boolean).join(' · ')}
      </Table.Td>
      <Table.Td>{formatSeconds(call.wait)}</Table.Td>
      <Table.Td>{formatSeconds(call.talk)}</Table.Td>
      <Table.Td>
        <Badge color={RESULT_COLOR[call.result]} variant="light">
          {t(`calls.results.${call.result}`)}
        </Badge>
        {call.migrated && (
          <Text size="xs" c="dimmed">
            {t('calls.migrated')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <RecordingPlayer call={call} compact />
      </Table.Td>
      <Table.Td>
        <Button size="compact-sm" variant="subtle" onClick={() => onOpen(call)}>
          {t('calls.details')}
          <VisuallyHidden>
            {' '}
            {t('calls.detailsOf', {
              caller: call.callerName || call.caller || t('calls.anonymous'),
              time: new Date(call.at).toLocaleString(i18n.language),
            })}
          </VisuallyHidden>
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** /calls: every call, newest first, filtered on the server; the filter lives in the URL so a view can be shared. */
export function CallsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = filtersOfUrl(params);
  const [form, setForm] = useState<Form>({ ...EMPTY, ...filters });
  const [open, setOpen] = useState<Call | null>(null);
  const paramsKey = params.toString();
  // The URL changed (back, a shared link): the form shows what is applied.
  useEffect(() => setForm({ ...EMPTY, ...filtersOfUrl(new URLSearchParams(paramsKey)) }), [paramsKey]);

  const list = useInfiniteQuery({
    queryKey: ['calls', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => callsApi.page({ ...filters, cursor: pageParam, limit: PAGE }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const backlog = useQuery({ queryKey: ['calls-backlog'], queryFn: callsApi.backlog, refetchInterval: 10_000 });
  const exportCsv = useMutation({
    mutationFn: () => callsApi.exportCsv(filters),
    onError: (error) => notifyError(t('calls.exportFailed'), error),
  });

  const apply = (next: Form) => {
    const checked = callFiltersSchema.safeParse(
      Object.fromEntries(
        Object.entries(next)
          .filter(([, v]) => v.trim() !== '')
          .map(([k, v]) => [k, v.trim()]),
      ),
    );
    if (!checked.success) return;
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(checked.data)) if (v) out.set(k, v);
    setParams(out);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const invalid = (key: keyof CallFilters) =>
    form[key].trim() !== '' && !callFiltersSchema.shape[key].safeParse(form[key].trim()).success
      ? t(`calls.invalid.${key === 'extension' || key === 'number' ? key : 'other'}`)
      : undefined;
  const field = (key: keyof CallFilters) => ({
    value: form[key],
    error: invalid(key),
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value }),
  });
  const choice = (key: 'direction' | 'result', values: readonly string[]) => ({
    value: form[key] || null,
    data: values.map((v) => ({ value: v, label: t(`calls.${key === 'direction' ? 'directions' : 'results'}.${v}`) })),
    clearable: true,
    placeholder: t('calls.any'),
    onChange: (v: string | null) => setForm({ ...form, [key]: v ?? '' }),
  });

  const rows = list.data?.pages.flatMap((p) => p.rows) ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('calls.title')}
        </Title>
        <Anchor component={Link} to="/calls/reports">
          {t('calls.reports')}
        </Anchor>
      </Group>
      <Text c="dimmed">{t('calls.intro')}</Text>
      {(backlog.data?.records ?? 0) > 0 && (
        <Alert color="blue" role="status">
          {t('calls.backlog', { count: backlog.data?.records ?? 0 })}
        </Alert>
      )}
      <Card withBorder radius="md">
        <form onSubmit={submit} aria-label={t('calls.filters')}>
          <Stack gap="sm">
            <Group gap="xs" role="group" aria-label={t('calls.presets')}>
              {PRESETS.map((preset) => (
                <Button
                  key={preset}
                  size="compact-sm"
                  variant="light"
                  onClick={() => {
                    const next = { ...form, ...presetRange(preset) };
                    setForm(next);
                    apply(next);
                  }}
                >
                  {t(`calls.preset.${preset}`)}
                </Button>
              ))}
            </Group>
            <Group align="flex-start" wrap="wrap">
              <TextInput type="date" label={t('calls.from')} {...field('from')} w={160} />
              <TextInput type="date" label={t('calls.to')} {...field('to')} w={160} />
              <Select label={t('calls.direction')} {...choice('direction', callDirections)} w={150} />
              <Select label={t('calls.result')} {...choice('result', callResults)} w={150} />
              <TextInput label={t('calls.extension')} {...field('extension')} w={130} />
              <TextInput label={t('calls.number')} {...field('number')} w={160} />
              <TextInput label={t('calls.trunk')} {...field('trunk')} w={140} />
              <TextInput label={t('calls.queue')} {...field('queue')} w={110} />
            </Group>
            <Group>
              <Button type="submit">{t('calls.apply')}</Button>
              <Button
                variant="default"
                onClick={() => {
                  setForm(EMPTY);
                  setParams(new URLSearchParams());
                }}
              >
                {t('calls.clear')}
              </Button>
              <Button variant="light" onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
                {t('calls.export')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <Text size="sm" role="status">
        {list.hasNextPage ? t('calls.shownMore', { count: rows.length }) : t('calls.shown', { count: rows.length })}
      </Text>
      {list.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : list.isError ? (
        <Alert color="red">{list.error.message}</Alert>
      ) : rows.length === 0 ? (
        <Text>{t('calls.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped withTableBorder aria-label={t('calls.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('calls.time')}</Table.Th>
                <Table.Th>{t('calls.direction')}</Table.Th>
                <Table.Th>{t('calls.caller')}</Table.Th>
                <Table.Th>{t('calls.called')}</Table.Th>
                <Table.Th>{t('calls.answeredBy')}</Table.Th>
                <Table.Th>{t('calls.via')}</Table.Th>
                <Table.Th>{t('calls.wait')}</Table.Th>
                <Table.Th>{t('calls.talk')}</Table.Th>
                <Table.Th>{t('calls.result')}</Table.Th>
                <Table.Th>{t('calls.recording.column')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('calls.details')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((call) => (
                <CallRow key={call.id} call={call} onOpen={setOpen} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.hasNextPage && <ShowMore loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />}
      <CallDetailModal call={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
