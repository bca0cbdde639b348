import type { FinalReportRow } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { buildReportPdf, REPORT_FILE_NAME, type ReportLabels, reportTable } from '../src/features/report/reportPdf.ts';

const labels: ReportLabels = {
  title: 'Final report',
  date: 'Date: 12 May 2025',
  extension: 'Extension',
  fullname: 'Full name',
  username: 'Username',
  voicemailPassword: 'Voicemail password',
  password: 'Password',
  page: (page, pages) => `Page ${page} of ${pages}`,
};

const rows: FinalReportRow[] = [
  { username: 'bob', displayname: 'Bob Bianchi', password: null, default_extension: '1001', voicemailpwd: '' },
  {
    username: 'alice',
    displayname: 'Alice Rossi',
    password: 'Xk42pQ9z',
    default_extension: '201',
    voicemailpwd: '4821',
  },
];

/** The PDF as text: jsPDF writes uncompressed content streams, so the shown strings are readable. */
function pdfText(doc: ReturnType<typeof buildReportPdf>): string {
  return doc.output();
}

describe('final report PDF', () => {
  it('is named wizard_report.pdf', () => {
    expect(REPORT_FILE_NAME).toBe('wizard_report.pdf');
  });

  it('is a landscape page with the title, the date, the headers and every row', () => {
    const doc = buildReportPdf(rows, labels, { showPassword: true });
    expect(doc.getNumberOfPages()).toBe(1);
    expect(doc.internal.pageSize.getWidth()).toBeGreaterThan(doc.internal.pageSize.getHeight());
    const text = pdfText(doc);
    expect(text.startsWith('%PDF-')).toBe(true);
    // A4 landscape: 842 × 595 points.
    const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(text);
    expect(Math.round(Number(box?.[1]))).toBe(842);
    expect(Math.round(Number(box?.[2]))).toBe(595);
    for (const shown of [
      'Final report',
      'Date: 12 May 2025',
      'Extension',
      'Full name',
      'Username',
      'Voicemail password',
      'Password',
      'Alice Rossi',
      'alice',
      '201',
      '4821',
      'Xk42pQ9z',
      'Bob Bianchi',
      '1001',
      'Page 1 of 1',
    ]) {
      expect(text, shown).toContain(`(${shown})`);
    }
    expect(doc.output('arraybuffer').byteLength).toBeGreaterThan(1000);
  });

  it('leaves the password column out unless the directory is local', () => {
    const doc = buildReportPdf(rows, labels, { showPassword: false });
    const text = pdfText(doc);
    expect(text).toContain('(Alice Rossi)');
    expect(text).toContain('(Voicemail password)');
    expect(text).not.toContain('(Password)');
    expect(text).not.toContain('Xk42pQ9z');
  });

  it('orders rows by extension number and puts the columns in the order of the spec', () => {
    expect(reportTable(rows, labels, { showPassword: true })).toEqual({
      head: ['Extension', 'Full name', 'Username', 'Voicemail password', 'Password'],
      body: [
        ['201', 'Alice Rossi', 'alice', '4821', 'Xk42pQ9z'],
        ['1001', 'Bob Bianchi', 'bob', '—', '—'],
      ],
    });
    expect(reportTable(rows, labels, { showPassword: false }).head).toEqual([
      'Extension',
      'Full name',
      'Username',
      'Voicemail password',
    ]);
  });

  it('spreads many users over several landscape pages, numbered', () => {
    const many: FinalReportRow[] = Array.from({ length: 120 }, (_, i) => ({
      username: `user${i}`,
      displayname: `User Number ${i}`,
      password: `pw${i}`,
      default_extension: String(200 + i),
      voicemailpwd: String(1000 + i),
    }));
    const doc = buildReportPdf(many, labels, { showPassword: true });
    const pages = doc.getNumberOfPages();
    expect(pages).toBeGreaterThan(1);
    for (let page = 1; page <= pages; page++) {
      doc.setPage(page);
      expect(doc.getCurrentPageInfo().pageContext.mediaBox.topRightX).toBeGreaterThan(
        doc.getCurrentPageInfo().pageContext.mediaBox.topRightY,
      );
    }
    const text = pdfText(doc);
    expect(text).toContain(`(Page ${pages} of ${pages})`);
    expect(text).toContain('(User Number 0)');
    expect(text).toContain('(User Number 119)');
    // The header row is repeated on every page.
    expect(text.split('(Voicemail password)').length - 1).toBe(pages);
  });
});
