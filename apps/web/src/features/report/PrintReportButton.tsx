import { Button } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePrintReport } from './useReport.ts';

/** "Print final report": downloads wizard_report.pdf (on /admin/report and on /final). */
export function PrintReportButton({ variant }: { variant?: 'filled' | 'default' | 'light' }) {
  const { t } = useTranslation();
  const print = usePrintReport();
  return (
    <Button
      variant={variant}
      leftSection={<IconPrinter size={16} />}
      loading={print.isPending}
      onClick={() => print.mutate()}
    >
      {t('report.print')}
    </Button>
  );
}
