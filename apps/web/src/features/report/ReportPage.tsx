import type { FinalReportRow } from '@centralino/contract';
import { Alert, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ListView } from '../../components/ListView.tsx';
import { PrintReportButton } from './PrintReportButton.tsx';
import { EMPTY_CELL, sortReportRows } from './reportPdf.ts';
import { useFinalReport } from './useReport.ts';

function Cell({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  );
}

export function ReportPage() {
  const { t } = useTranslation();
  const { report, provider, showPassword, showPin } = useFinalReport();
  const rows = useMemo(() => sortReportRows(report.data ?? []), [report.data]);

  let content: React.ReactNode;
  if (report.isPending || provider.isPending) {
    content = (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  } else if (report.isError) {
    content = (
      <Alert color="red" icon={<IconAlertCircle />} title={t('report.loadError')} role="alert">
        {report.error.message}
      </Alert>
    );
  } else {
    content = (
      <ListView<FinalReportRow>
        items={rows}
        label={t('report.title')}
        getKey={(row) => row.username}
        searchText={(row) => `${row.default_extension} ${row.displayname} ${row.username}`}
        emptyText={t('report.empty')}
        renderItem={(row) => (
          <Paper withBorder p="sm" radius="md" data-testid="report-row">
            <SimpleGrid cols={{ base: 2, sm: 3 + Number(showPin) + Number(showPassword) }} spacing="sm">
              <Cell label={t('report.columns.extension')} value={row.default_extension} testId="report-extension" />
              <Cell label={t('report.columns.fullname')} value={row.displayname} testId="report-fullname" />
              <Cell label={t('report.columns.username')} value={row.username} testId="report-username" />
              {showPin && (
                <Cell
                  label={t('report.columns.voicemailPassword')}
                  value={row.voicemailpwd || EMPTY_CELL}
                  testId="report-voicemail"
                />
              )}
              {showPassword && (
                <Cell
                  label={t('report.columns.password')}
                  value={row.password ?? EMPTY_CELL}
                  testId="report-password"
                />
              )}
            </SimpleGrid>
          </Paper>
        )}
      />
    );
  }

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="end">
        <div>
          <Title order={1} size="h2">
            {t('report.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {showPassword ? t('report.descriptionLocal') : t('report.description')}
          </Text>
          {!showPin && (
            <Text size="sm" c="dimmed" data-testid="report-credentials-hidden">
              {t('readOnly.credential')}
            </Text>
          )}
        </div>
        <PrintReportButton />
      </Group>
      {content}
    </Stack>
  );
}
