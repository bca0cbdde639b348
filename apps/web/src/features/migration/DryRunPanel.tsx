import { MIGRATION_DRY_RUN_COUNTS, type MigrationDryRun, type MigrationReport } from '@centralino/contract';
import { Alert, Button, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { migrationApi } from './migrationApi.ts';
import { reportRows } from './migrationPdf.ts';
import { ReportTables } from './ReportTables.tsx';

/**
 * The dry run's report as the report screen shows one: its errors and warnings (the infos, one per object, are
 * summed up by the counts instead), in the report's areas and order.
 */
function dryRows(report: MigrationDryRun['report']) {
  const stored: MigrationReport = Object.fromEntries(
    Object.entries(report).map(([step, { errors, warnings }]) => [step, { errors, warnings }]),
  );
  return reportRows(stored);
}

/** /migration: "Dry run": what the migration would do, read from the whole old system, before anything is written. */
export function DryRunPanel() {
  const { t } = useTranslation();
  const run = useMutation({ mutationFn: migrationApi.dryRun });
  return (
    <Stack gap="md">
      <Text>{t('migration.dryRun.intro')}</Text>
      <div>
        <Button variant="default" onClick={() => run.mutate()} loading={run.isPending}>
          {t('migration.dryRun.button')}
        </Button>
      </div>
      {run.isError && <Alert color="red">{t('migration.dryRun.failed')}</Alert>}
      {run.data && (
        <Stack gap="md" data-testid="dry-run-report">
          <Text fw={700} component="h2" size="lg">
            {t('migration.dryRun.title')}
          </Text>
          <Paper withBorder p="sm" radius="md">
            <Table data-testid="dry-run-counts">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('migration.dryRun.object')}</Table.Th>
                  <Table.Th>{t('migration.dryRun.count')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {MIGRATION_DRY_RUN_COUNTS.map((key) => (
                  <Table.Tr key={key}>
                    <Table.Td>{t(`migration.dryRun.counts.${key}`)}</Table.Td>
                    <Table.Td>{run.data.counts[key]}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <ReportTables sections={dryRows(run.data.report)} idPrefix="dry-run" />
        </Stack>
      )}
    </Stack>
  );
}
