import type { FinalReportRow } from '@centralino/contract';
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';

export const REPORT_FILE_NAME = 'wizard_report.pdf';

/** Localised texts of the report; the caller formats the date line. */
export interface ReportLabels {
  title: string;
  /** e.g. "Date: 12/05/2025 10:30". */
  date: string;
  extension: string;
  fullname: string;
  username: string;
  voicemailPassword: string;
  password: string;
  /** "Page {{page}} of {{pages}}" with the numbers already in place, per page. */
  page: (page: number, pages: number) => string;
}

export interface ReportOptions {
  /** The password column exists only when users live in the local directory. */
  showPassword: boolean;
  /** A read-only account's report has no credential column: neither passwords nor voicemail PINs. */
  showPin?: boolean;
}

/** Text shown for an empty cell (no voicemail, no remembered password). */
export const EMPTY_CELL = '—';

/** Extensions in numeric order (201 before 1001); the server orders them as strings. */
export function sortReportRows(rows: readonly FinalReportRow[]): FinalReportRow[] {
  return [...rows].sort(
    (a, b) =>
      a.default_extension.localeCompare(b.default_extension, undefined, { numeric: true }) ||
      a.username.localeCompare(b.username),
  );
}

/** Header and body of the report table, in the column order of the spec. */
export function reportTable(
  rows: readonly FinalReportRow[],
  labels: ReportLabels,
  { showPassword, showPin = true }: ReportOptions,
) {
  const head = [labels.extension, labels.fullname, labels.username];
  if (showPin) head.push(labels.voicemailPassword);
  if (showPassword) head.push(labels.password);
  const body = sortReportRows(rows).map((row) => {
    const cells = [row.default_extension, row.displayname, row.username];
    if (showPin) cells.push(row.voicemailpwd || EMPTY_CELL);
    if (showPassword) cells.push(row.password ?? EMPTY_CELL);
    return cells;
  });
  return { head, body };
}

// The standard PDF fonts cover Latin-1 only; an em dash would come out as garbage.
const PDF_EMPTY_CELL = '-';

/** The final report as a landscape A4 PDF: title, date, then the users table (header repeated per page). */
export function buildReportPdf(rows: readonly FinalReportRow[], labels: ReportLabels, options: ReportOptions): jsPDF {
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
  doc.setProperties({ title: labels.title, creator: 'Centralino' });
  const margin = 14;

  doc.setFontSize(18);
  doc.text(labels.title, margin, 18);
  doc.setFontSize(10);
  doc.setTextColor(90);
  doc.text(labels.date, margin, 25);
  doc.setTextColor(0);

  const { head, body } = reportTable(rows, labels, options);
  autoTable(doc, {
    head: [head],
    body: body.map((cells) => cells.map((cell) => (cell === EMPTY_CELL ? PDF_EMPTY_CELL : cell))),
    startY: 31,
    margin: { left: margin, right: margin, bottom: 16 },
    styles: { fontSize: 10, cellPadding: 2 },
    headStyles: { fillColor: [34, 139, 230] },
    theme: 'striped',
  });

  const pages = doc.getNumberOfPages();
  const width = doc.internal.pageSize.getWidth();
  const height = doc.internal.pageSize.getHeight();
  doc.setFontSize(8);
  doc.setTextColor(120);
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.text(labels.page(page, pages), width - margin, height - 8, { align: 'right' });
  }
  return doc;
}
