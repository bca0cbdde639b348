import type { FinalReportRow, UserProvider } from '@centralino/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/endpoints.ts';
import { useCanWrite } from '../../app/auth.tsx';
import { notifyError } from '../../components/notify.ts';
import type { ReportLabels } from './reportPdf.ts';

const REPORT_KEY = ['final-report'] as const;
const PROVIDER_KEY = ['user-provider'] as const;

/** Passwords are remembered only for the local directory; an unknown provider hides them. */
export function showsPasswords(provider: UserProvider | undefined): boolean {
  return provider?.local === 1;
}

export function useFinalReport() {
  const report = useQuery({ queryKey: REPORT_KEY, queryFn: api.finalReport });
  const provider = useQuery({ queryKey: PROVIDER_KEY, queryFn: api.userProvider });
  // A read-only account gets the report without credentials (the server blanks them): no column for them.
  const showPin = useCanWrite();
  return { report, provider, showPin, showPassword: showPin && showsPasswords(provider.data) };
}

export function reportLabels(t: TFunction, language: string, now = new Date()): ReportLabels {
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(now);
  return {
    title: t('report.pdfTitle'),
    date: t('report.date', { date }),
    extension: t('report.columns.extension'),
    fullname: t('report.columns.fullname'),
    username: t('report.columns.username'),
    voicemailPassword: t('report.columns.voicemailPassword'),
    password: t('report.columns.password'),
    page: (page, pages) => t('report.page', { page, pages }),
  };
}

/** "Print final report": fetches the current data and downloads wizard_report.pdf. */
export function usePrintReport() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const showPin = useCanWrite();
  return useMutation({
    mutationFn: async () => {
      const [rows, provider, pdf] = await Promise.all([
        queryClient.fetchQuery<FinalReportRow[]>({ queryKey: REPORT_KEY, queryFn: api.finalReport, staleTime: 0 }),
        queryClient
          .fetchQuery<UserProvider>({ queryKey: PROVIDER_KEY, queryFn: api.userProvider })
          .catch(() => undefined),
        // jsPDF is large: it loads only when a report is printed.
        import('./reportPdf.ts'),
      ]);
      const doc = pdf.buildReportPdf(rows, reportLabels(t, i18n.language), {
        showPassword: showPin && showsPasswords(provider),
        showPin,
      });
      doc.save(pdf.REPORT_FILE_NAME);
    },
    onError: (error) => notifyError(t('report.printError'), error),
  });
}
