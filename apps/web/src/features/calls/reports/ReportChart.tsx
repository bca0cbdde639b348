import { Box, Button, Card, Group, SimpleGrid, Table, Text, Title, useComputedColorScheme } from '@mantine/core';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { saveCsv, saveFile } from './api.ts';

// Only what bar charts use: Chart.js is tree-shaken to these parts.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** Series colours per scheme: the dark ones are lighter shades, so bars keep their contrast on the dark page. */
const PALETTE = {
  light: { text: '#212529', grid: '#dee2e6', series: ['#2b8a3e', '#d9480f', '#1864ab', '#862e9c'] },
  dark: { text: '#dee2e6', grid: '#424242', series: ['#69db7c', '#ffa94d', '#74c0fc', '#e599f7'] },
};

/** The colour behind an element: the first ancestor with a background of its own (the card, in either scheme). */
function surfaceOf(element: HTMLElement): string {
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    const color = getComputedStyle(node).backgroundColor;
    if (color && color !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return '#ffffff';
}

export interface Series {
  label: string;
  values: number[];
}

interface Props {
  /** The section's id (the files' names, the table's id). */
  id: string;
  title: string;
  /** The labels of the bars, and the table's first column's heading. */
  labels: string[];
  labelHeading: string;
  series: Series[];
  stacked?: boolean;
  /** More columns in the table (and the CSV) than the chart draws. */
  extra?: { heading: string; values: string[] }[];
  /** The chart's text alternative, one sentence. */
  summary: string;
  empty?: boolean;
}

/**
 * One report section: a bar chart (Chart.js on a canvas) beside the same figures as a table, which is what a screen
 * reader reads (the canvas is an image with a one-sentence summary); either can be saved, as CSV or PNG.
 */
export function ReportChart({ id, title, labels, labelHeading, series, stacked, extra = [], summary, empty }: Props) {
  const { t, i18n } = useTranslation();
  const scheme = useComputedColorScheme('light');
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<'bar'> | null>(null);
  const number = new Intl.NumberFormat(i18n.language);

  useEffect(() => {
    const element = canvas.current;
    if (!element || empty) return;
    const colors = PALETTE[scheme];
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels,
        datasets: series.map((s, i) => ({
          label: s.label,
          data: s.values,
          backgroundColor: colors.series[i % colors.series.length],
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        locale: i18n.language,
        scales: {
          x: { stacked, ticks: { color: colors.text }, grid: { color: colors.grid } },
          y: { stacked, beginAtZero: true, ticks: { color: colors.text, precision: 0 }, grid: { color: colors.grid } },
        },
        plugins: { legend: { labels: { color: colors.text } } },
      },
    };
    chart.current = new Chart(element, config);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [labels, series, stacked, scheme, i18n.language, empty]);

  const head = [labelHeading, ...series.map((s) => s.label), ...extra.map((e) => e.heading)];
  const rows = labels.map((label, i) => [
    label,
    ...series.map((s) => number.format(s.values[i] ?? 0)),
    ...extra.map((e) => e.values[i] ?? ''),
  ]);
  const csv = () =>
    saveCsv(
      `${id}.csv`,
      head,
      labels.map((label, i) => [label, ...series.map((s) => s.values[i] ?? 0), ...extra.map((e) => e.values[i] ?? '')]),
    );
  // The canvas is transparent on the page (the card shows through); the image gets the card's colour behind it.
  const png = () => {
    const drawn = canvas.current;
    if (!drawn) return;
    const sheet = document.createElement('canvas');
    sheet.width = drawn.width;
    sheet.height = drawn.height;
    const ctx = sheet.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = surfaceOf(drawn);
    ctx.fillRect(0, 0, sheet.width, sheet.height);
    ctx.drawImage(drawn, 0, 0);
    saveFile(`${id}.png`, sheet.toDataURL('image/png'));
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby={`${id}-title`}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id={`${id}-title`}>
          {title}
        </Title>
        <Group gap="xs">
          <Button size="compact-sm" variant="light" onClick={csv} disabled={empty}>
            {t('callReports.csv')}
          </Button>
          <Button size="compact-sm" variant="light" onClick={png} disabled={empty}>
            {t('callReports.png')}
          </Button>
        </Group>
      </Group>
      {empty ? (
        <Text c="dimmed">{t('callReports.noData')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <div style={{ position: 'relative', height: 280 }}>
            <canvas ref={canvas} role="img" aria-label={summary} data-chart={id} data-scheme={scheme} />
          </div>
          {/* Scrolls within the chart's height; focusable, so a keyboard can scroll it too. */}
          <Box
            tabIndex={0}
            role="group"
            aria-label={t('callReports.tableOf', { title })}
            style={{ overflow: 'auto', maxHeight: 280 }}
          >
            <Table striped withTableBorder stickyHeader id={`${id}-table`}>
              <caption style={{ captionSide: 'top', textAlign: 'start' }}>
                <Text size="xs" c="dimmed" component="span">
                  {title}
                </Text>
              </caption>
              <Table.Thead>
                <Table.Tr>
                  {head.map((h) => (
                    <Table.Th key={h} scope="col">
                      {h}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r[0]}>
                    {r.map((c, i) =>
                      i === 0 ? (
                        <Table.Th key={head[i]} scope="row" fw="normal">
                          {c}
                        </Table.Th>
                      ) : (
                        <Table.Td key={head[i]}>{c}</Table.Td>
                      ),
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Box>
        </SimpleGrid>
      )}
    </Card>
  );
}
