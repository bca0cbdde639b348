import { MIGRATION_REPORT_SECTIONS, type MigrationReport } from '@centralino/contract';
import { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';

export const MIGRATION_REPORT_FILE = 'migration_report.pdf';

/** Per console section, the messages of its server steps with their type: errors, then warnings, then infos. */
export function reportRows(report: MigrationReport): { section: string; rows: { message: string; type: string }[] }[] {
  return MIGRATION_REPORT_SECTIONS.map(([section, steps]) => ({
    section,
    rows: steps.flatMap((step) => [
      ...(report[step]?.errors ?? []).map((message) => ({ message, type: 'errors' })),
      ...(report[step]?.warnings ?? []).map((message) => ({ message, type: 'warnings' })),
      ...(report[step]?.infos ?? []).map((message) => ({ message, type: 'infos' })),
    ]),
  })).filter((s) => s.rows.length > 0);
}

/** Landscape PDF: one table per area, columns message and type. */
export function buildMigrationPdf(
  report: MigrationReport,
  labels: {
    title: string;
    message: string;
    type: string;
    section: (key: string) => string;
    kind: (k: string) => string;
  },
): jsPDF {
  const doc = new jsPDF({ orientation: 'landscape', unit: 'mm', format: 'a4' });
  doc.setProperties({ title: labels.title, creator: 'Centralino' });
  doc.setFontSize(18);
  doc.text(labels.title, 14, 18);
  let y = 26;
  for (const { section, rows } of reportRows(report)) {
    doc.setFontSize(12);
    doc.text(labels.section(section), 14, y + 4);
    autoTable(doc, {
      head: [[labels.message, labels.type]],
      body: rows.map((r) => [r.message, labels.kind(r.type)]),
      startY: y + 7,
      margin: { left: 14, right: 14 },
      styles: { fontSize: 9 },
      columnStyles: { 1: { cellWidth: 30 } },
      theme: 'striped',
    });
    y = (doc as unknown as { lastAutoTable: { finalY: number } }).lastAutoTable.finalY + 8;
  }
  return doc;
}
