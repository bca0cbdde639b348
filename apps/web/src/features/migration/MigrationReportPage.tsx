import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/endpoints.ts';
import { MigrationHeader } from './MigrationSteps.tsx';
import { migrationApi } from './migrationApi.ts';
import { reportRows } from './migrationPdf.ts';
import { ReportTables } from './ReportTables.tsx';

/** /migration/report: what each area could not migrate; Save PDF report; Exit ends the migration. */
export function MigrationReportPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The server writes the lines in the request's language: another language is another answer (and another PDF).
  const report = useQuery({ queryKey: ['migration', 'report', i18n.language], queryFn: migrationApi.report });
  const sections = report.data ? reportRows(report.data) : [];

  const savePdf = async () => {
    if (!report.data) return;
    const { buildMigrationPdf, MIGRATION_REPORT_FILE } = await import('./migrationPdf.ts');
    buildMigrationPdf(report.data, {
      title: t('migration.report.title'),
      message: t('migration.report.message'),
      type: t('migration.report.type'),
      section: (key) => t(`migration.sections.${key}`),
      kind: (k) => t(`migration.kinds.${k}`),
    }).save(MIGRATION_REPORT_FILE);
  };
  // Exit: the migration is over; the wizard goes on from the extensions.
  const exit = async () => {
    await migrationApi.end();
    await api.saveWizard({ status: 'true', step: 1 });
    await queryClient.invalidateQueries();
    navigate('/extensions');
  };

  return (
    <Stack gap="lg" maw={1100}>
      <MigrationHeader active={3} title={t('migration.report.title')} />
      {report.data && !sections.some((s) => s.rows.some((r) => r.type !== 'infos')) && (
        <Alert color="green">{t('migration.report.clean')}</Alert>
      )}
      <ReportTables sections={sections} />
      <Group justify="space-between">
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={savePdf} disabled={!report.data}>
          {t('migration.report.savePdf')}
        </Button>
        <Button onClick={exit}>{t('migration.report.exit')}</Button>
      </Group>
    </Stack>
  );
}
