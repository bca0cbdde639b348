import { type ByDirection, type CallReport, callDirections, SERVICE_LEVEL_DEFAULT } from '@centralino/contract';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, memo, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { notifyError } from '../../../components/notify.ts';
import { type DatePreset, formatSeconds, presetRange } from '../api.ts';
import { type ReportFilters, reportFiltersOfUrl, reportsApi } from './api.ts';
import { ReportChart, type Series } from './ReportChart.tsx';

const PRESETS: DatePreset[] = ['today', 'yesterday', 'week', 'last30'];
type Form = Required<Record<keyof ReportFilters, string>>;
const EMPTY: Form = { from: '', to: '', direction: '', serviceLevel: '' };

const sum = (b: ByDirection) => b.inbound + b.outbound + b.internal;

/** The sections of one report, each a chart and its table. */
const Sections = memo(function Sections({ report }: { report: CallReport }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;

  // Made once per report and language: a new array would draw the charts again.
  const sections = useMemo(() => {
    const number = new Intl.NumberFormat(language);
    const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
    const seconds = (v: number | null) => (v === null ? '—' : formatSeconds(Math.round(v)));
    const dayLabel = (day: string) =>
      new Date(`${day}T12:00:00`).toLocaleDateString(language, { day: 'numeric', month: 'short' });
    const answeredMissed = (rows: { answered: ByDirection; missed: ByDirection }[]): Series[] => [
      { label: t('callReports.answered'), values: rows.map((r) => sum(r.answered)) },
      { label: t('callReports.missed'), values: rows.map((r) => sum(r.missed)) },
    ];
    const byDirection = (rows: { answered: ByDirection; missed: ByDirection }[]) =>
      callDirections.flatMap((d) => [
        {
          heading: t('callReports.directionAnswered', { direction: t(`calls.directions.${d}`) }),
          values: rows.map((r) => number.format(r.answered[d])),
        },
        {
          heading: t('callReports.directionMissed', { direction: t(`calls.directions.${d}`) }),
          values: rows.map((r) => number.format(r.missed[d])),
        },
      ]);
    const busiest = (rows: { answered: ByDirection; missed: ByDirection }[], label: (i: number) => string) => {
      let best = 0;
      rows.forEach((r, i) => {
        const row = rows[best] as (typeof rows)[number];
        if (sum(r.answered) + sum(r.missed) > sum(row.answered) + sum(row.missed)) best = i;
      });
      return label(best);
    };
    const hourLabels = report.hours.map((h) => `${String(h.hour).padStart(2, '0')}:00`);
    return {
      hours: {
        labels: hourLabels,
        series: answeredMissed(report.hours),
        extra: byDirection(report.hours),
        summary: t('callReports.hoursSummary', {
          calls: number.format(report.totals.calls),
          hour: busiest(report.hours, (i) => hourLabels[i] as string),
        }),
      },
      days: {
        labels: report.days.map((d) => dayLabel(d.day)),
        series: answeredMissed(report.days),
        extra: byDirection(report.days),
        summary: t('callReports.daysSummary', {
          answered: number.format(report.totals.answered),
          missed: number.format(report.totals.missed),
          day: busiest(report.days, (i) => dayLabel(report.days[i]?.day ?? '')),
        }),
      },
      queues: {
        labels: report.queues.map((q) => (q.name ? `${q.queue} ${q.name}` : q.queue)),
        series: [
          { label: t('callReports.answered'), values: report.queues.map((q) => q.answered) },
          { label: t('callReports.abandoned'), values: report.queues.map((q) => q.abandoned) },
          { label: t('callReports.timedOut'), values: report.queues.map((q) => q.timedOut + q.left) },
        ],
        extra: [
          { heading: t('callReports.offered'), values: report.queues.map((q) => number.format(q.offered)) },
          { heading: t('callReports.avgWait'), values: report.queues.map((q) => seconds(q.avgWait)) },
          { heading: t('callReports.p90Wait'), values: report.queues.map((q) => seconds(q.p90Wait)) },
          {
            heading: t('callReports.serviceLevel', { seconds: report.serviceLevel }),
            values: report.queues.map((q) => (q.serviceLevel === null ? '—' : percent.format(q.serviceLevel))),
          },
        ],
        summary: t('callReports.queuesSummary', {
          count: report.queues.length,
          offered: number.format(report.queues.reduce((a, q) => a + q.offered, 0)),
          answered: number.format(report.queues.reduce((a, q) => a + q.answered, 0)),
        }),
      },
      agents: {
        labels: report.agents.map((a) => t('callReports.agentInQueue', { agent: a.agent, queue: a.queue })),
        series: [{ label: t('callReports.answered'), values: report.agents.map((a) => a.answered) }],
        extra: [
          { heading: t('callReports.talk'), values: report.agents.map((a) => formatSeconds(a.talk)) },
          { heading: t('callReports.ringNoAnswer'), values: report.agents.map((a) => number.format(a.ringNoAnswer)) },
        ],
        summary: t('callReports.agentsSummary', { count: report.agents.length }),
      },
      trunks: {
        labels: report.trunks.map((tr) => tr.trunk),
        series: [
          { label: t('calls.directions.inbound'), values: report.trunks.map((tr) => tr.inbound) },
          { label: t('calls.directions.outbound'), values: report.trunks.map((tr) => tr.outbound) },
        ],
        extra: [
          { heading: t('callReports.calls'), values: report.trunks.map((tr) => number.format(tr.calls)) },
          {
            heading: t('callReports.minutes'),
            values: report.trunks.map((tr) => number.format(Math.round(tr.talk / 6) / 10)),
          },
          { heading: t('callReports.peak'), values: report.trunks.map((tr) => number.format(tr.peak)) },
        ],
        summary: t('callReports.trunksSummary', { count: report.trunks.length }),
      },
    };
  }, [report, t, language]);

  const range = `${report.from}_${report.to}`;
  return (
    <>
      <ReportChart
        id={`calls-by-hour-${range}`}
        title={t('callReports.byHour')}
        labelHeading={t('callReports.hour')}
        stacked
        empty={report.totals.calls === 0}
        {...sections.hours}
      />
      <ReportChart
        id={`calls-by-day-${range}`}
        title={t('callReports.byDay')}
        labelHeading={t('callReports.day')}
        stacked
        empty={report.totals.calls === 0}
        {...sections.days}
      />
      <ReportChart
        id={`queues-${range}`}
        title={t('callReports.queues')}
        labelHeading={t('callReports.queue')}
        stacked
        empty={report.queues.length === 0}
        {...sections.queues}
      />
      <ReportChart
        id={`agents-${range}`}
        title={t('callReports.agents')}
        labelHeading={t('callReports.agent')}
        empty={report.agents.length === 0}
        {...sections.agents}
      />
      <ReportChart
        id={`trunks-${range}`}
        title={t('callReports.trunks')}
        labelHeading={t('callReports.trunk')}
        stacked
        empty={report.trunks.length === 0}
        {...sections.trunks}
      />
    </>
  );
});

/** /calls/reports: the figures of a range of days as charts and tables; the filter lives in the URL. */
export function ReportsPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const paramsKey = params.toString();
  const filters = useMemo(() => reportFiltersOfUrl(new URLSearchParams(paramsKey)), [paramsKey]);
  const [form, setForm] = useState<Form>({ ...EMPTY, ...filters });
  useEffect(() => setForm({ ...EMPTY, ...filters }), [filters]);
  const query = {
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(filters.direction ? { direction: filters.direction as (typeof callDirections)[number] } : {}),
    ...(filters.serviceLevel ? { serviceLevel: Number(filters.serviceLevel) } : {}),
  };
  const report = useQuery({ queryKey: ['call-reports', query], queryFn: () => reportsApi.report(query) });
  const month = (report.data?.from ?? new Date().toISOString()).slice(0, 7);
  const [pdfMonth, setPdfMonth] = useState('');
  const [pdfLang, setPdfLang] = useState<'en' | 'it'>(i18n.language.startsWith('it') ? 'it' : 'en');
  const pdf = useMutation({
    mutationFn: () => reportsApi.pdf(pdfMonth || month, pdfLang, Number(filters.serviceLevel || SERVICE_LEVEL_DEFAULT)),
    onError: (error) => notifyError(t('callReports.pdfFailed'), error),
  });

  const apply = (next: Form) => {
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v.trim()) out.set(k, v.trim());
    setParams(out);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(form);
  };
  const field = (key: 'from' | 'to' | 'serviceLevel') => ({
    value: form[key],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [key]: e.currentTarget.value }),
  });
  const serviceLevelBad = form.serviceLevel !== '' && !/^\d{1,4}$/.test(form.serviceLevel);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={1} size="h2">
          {t('callReports.title')}
        </Title>
        <Anchor component={Link} to="/calls">
          {t('callReports.toHistory')}
        </Anchor>
      </Group>
      <Text c="dimmed">{t('callReports.intro')}</Text>
      <Card withBorder radius="md">
        <form onSubmit={submit} aria-label={t('callReports.filters')}>
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
              <Select
                label={t('calls.direction')}
                value={form.direction || null}
                data={callDirections.map((d) => ({ value: d, label: t(`calls.directions.${d}`) }))}
                clearable
                placeholder={t('calls.any')}
                onChange={(v) => setForm({ ...form, direction: v ?? '' })}
                w={150}
              />
              <TextInput
                label={t('callReports.serviceLevelInput')}
                placeholder={String(SERVICE_LEVEL_DEFAULT)}
                inputMode="numeric"
                error={serviceLevelBad ? t('callReports.serviceLevelInvalid') : undefined}
                {...field('serviceLevel')}
                w={190}
              />
            </Group>
            <Group>
              <Button type="submit" disabled={serviceLevelBad}>
                {t('callReports.apply')}
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  setForm(EMPTY);
                  setParams(new URLSearchParams());
                }}
              >
                {t('callReports.reset')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <Card withBorder radius="md" component="section" aria-labelledby="report-pdf-title">
        <Title order={2} size="h4" id="report-pdf-title" mb="sm">
          {t('callReports.pdfTitle')}
        </Title>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            type="month"
            label={t('callReports.month')}
            value={pdfMonth || month}
            onChange={(e) => setPdfMonth(e.currentTarget.value)}
            w={180}
          />
          <Select
            label={t('callReports.pdfLanguage')}
            value={pdfLang}
            allowDeselect={false}
            data={[
              { value: 'en', label: t('uiLanguages.en') },
              { value: 'it', label: t('uiLanguages.it') },
            ]}
            onChange={(v) => setPdfLang(v === 'it' ? 'it' : 'en')}
            w={160}
          />
          <Button variant="light" onClick={() => pdf.mutate()} loading={pdf.isPending}>
            {t('callReports.pdf')}
          </Button>
        </Group>
      </Card>
      {report.isPending ? (
        <Center>
          <Loader size="sm" aria-label={t('app.loading')} />
        </Center>
      ) : report.isError ? (
        <Alert color="red">{report.error.message}</Alert>
      ) : (
        <>
          <Text role="status">
            {t('callReports.totals', {
              from: new Date(`${report.data.from}T12:00:00`).toLocaleDateString(i18n.language),
              to: new Date(`${report.data.to}T12:00:00`).toLocaleDateString(i18n.language),
              calls: new Intl.NumberFormat(i18n.language).format(report.data.totals.calls),
              answered: new Intl.NumberFormat(i18n.language).format(report.data.totals.answered),
              missed: new Intl.NumberFormat(i18n.language).format(report.data.totals.missed),
            })}
          </Text>
          <Sections report={report.data} />
        </>
      )}
    </Stack>
  );
}
