import type { ByDirection, CallReport, UiLanguage } from '@centralino/contract';
import PDFDocument from 'pdfkit';

/**
 * A month's call report as a PDF (issue 41): the totals, calls per day and per hour of day as bar charts, and the
 * queue, agent and trunk tables, in English or Italian. Drawn with pdfkit's built-in Helvetica (its WinAnsi
 * encoding has every Italian letter), so no font file ships with the server.
 */

const WORDS = {
  en: {
    title: 'Call report',
    generated: 'Generated',
    range: 'From {from} to {to}',
    totals: '{calls} calls: {answered} answered, {missed} not answered',
    perDay: 'Calls per day',
    perHour: 'Calls per hour of day',
    answered: 'Answered',
    missed: 'Not answered',
    queues: 'Queues',
    agents: 'Agents',
    trunks: 'Trunks',
    none: 'No data in this period.',
    queue: 'Queue',
    offered: 'Offered',
    abandoned: 'Abandoned',
    avgWait: 'Avg wait',
    p90Wait: '90% wait',
    serviceLevel: 'Within {n} s',
    agent: 'Agent',
    talk: 'Talk time',
    notAnswered: 'Rings not answered',
    trunk: 'Trunk',
    calls: 'Calls',
    inbound: 'Inbound',
    outbound: 'Outbound',
    minutes: 'Minutes',
    peak: 'Peak concurrent',
  },
  it: {
    title: 'Report chiamate',
    generated: 'Generato il',
    range: 'Dal {from} al {to}',
    totals: '{calls} chiamate: {answered} risposte, {missed} senza risposta',
    perDay: 'Chiamate per giorno',
    perHour: 'Chiamate per ora del giorno',
    answered: 'Risposte',
    missed: 'Senza risposta',
    queues: 'Code',
    agents: 'Operatori',
    trunks: 'Linee',
    none: 'Nessun dato in questo periodo.',
    queue: 'Coda',
    offered: 'Entrate',
    abandoned: 'Abbandonate',
    avgWait: 'Attesa media',
    p90Wait: 'Attesa 90%',
    serviceLevel: 'Entro {n} s',
    agent: 'Operatore',
    talk: 'Conversazione',
    notAnswered: 'Squilli senza risposta',
    trunk: 'Linea',
    calls: 'Chiamate',
    inbound: 'Entranti',
    outbound: 'Uscenti',
    minutes: 'Minuti',
    peak: 'Picco contemporanee',
  },
} satisfies Record<UiLanguage, Record<string, string>>;

type Word = keyof (typeof WORDS)['en'];

const ANSWERED = '#2f9e44';
const MISSED = '#e8590c';
const MARGIN = 50;

const sum = (b: ByDirection) => b.inbound + b.outbound + b.internal;

/** mm:ss, or h:mm:ss from an hour on. */
function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

export function monthRange(month: string): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(year, m, 0).getDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

export function reportPdf(report: CallReport, lang: UiLanguage, month: string): Promise<Buffer> {
  const words = WORDS[lang];
  const say = (key: Word, params: Record<string, string | number> = {}) =>
    words[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
  const number = new Intl.NumberFormat(lang === 'it' ? 'it-IT' : 'en-GB');
  const dayText = (day: string) =>
    new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', { dateStyle: 'long' }).format(
      new Date(`${day}T12:00:00`),
    );
  const monthText = new Intl.DateTimeFormat(lang === 'it' ? 'it-IT' : 'en-GB', { month: 'long', year: 'numeric' })
    .format(new Date(`${month}-15T12:00:00`))
    .replace(/^./, (c) => c.toUpperCase());

  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `${words.title} ${monthText}`, Creator: 'Centralino' },
    lang: lang === 'it' ? 'it-IT' : 'en-GB',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN;
  const room = (height: number) => {
    if (doc.y + height > bottom()) doc.addPage();
  };

  doc.font('Helvetica-Bold').fontSize(20).text(`${words.title} — ${monthText}`);
  doc.moveDown(0.3);
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#444')
    .text(say('range', { from: dayText(report.from), to: dayText(report.to) }));
  doc.text(`${words.generated} ${dayText(new Date().toISOString().slice(0, 10))}`);
  doc.moveDown(0.6);
  doc
    .fillColor('#000')
    .fontSize(12)
    .text(
      say('totals', {
        calls: number.format(report.totals.calls),
        answered: number.format(report.totals.answered),
        missed: number.format(report.totals.missed),
      }),
    );
  doc.moveDown();

  /** Stacked bars, answered under not answered, with a legend and every `labelEvery`th label. */
  const bars = (title: string, rows: { label: string; answered: number; missed: number }[], labelEvery: number) => {
    const height = 130;
    room(height + 60);
    doc.font('Helvetica-Bold').fontSize(13).fillColor('#000').text(title);
    doc.moveDown(0.3);
    const top = doc.y;
    const max = Math.max(1, ...rows.map((r) => r.answered + r.missed));
    const step = width / Math.max(rows.length, 1);
    const bar = Math.max(2, step * 0.7);
    doc.fontSize(7).font('Helvetica').fillColor('#444').text(number.format(max), MARGIN, top, { lineBreak: false });
    doc
      .moveTo(MARGIN, top + height)
      .lineTo(MARGIN + width, top + height)
      .strokeColor('#888')
      .lineWidth(0.5)
      .stroke();
    rows.forEach((r, i) => {
      const x = MARGIN + i * step + (step - bar) / 2;
      const a = (r.answered / max) * height;
      const m = (r.missed / max) * height;
      if (a > 0) doc.rect(x, top + height - a, bar, a).fill(ANSWERED);
      if (m > 0) doc.rect(x, top + height - a - m, bar, m).fill(MISSED);
      if (i % labelEvery === 0) {
        doc
          .fillColor('#444')
          .fontSize(7)
          .text(r.label, MARGIN + i * step - 10, top + height + 3, {
            width: step + 20,
            align: 'center',
            lineBreak: false,
          });
      }
    });
    const legend = top + height + 16;
    doc.rect(MARGIN, legend, 8, 8).fill(ANSWERED);
    doc
      .fillColor('#000')
      .fontSize(8)
      .text(words.answered, MARGIN + 12, legend, { lineBreak: false });
    doc.rect(MARGIN + 90, legend, 8, 8).fill(MISSED);
    doc.fillColor('#000').text(words.missed, MARGIN + 102, legend, { lineBreak: false });
    doc.x = MARGIN;
    doc.y = legend + 22;
  };

  bars(
    words.perDay,
    report.days.map((d) => ({ label: d.day.slice(8), answered: sum(d.answered), missed: sum(d.missed) })),
    report.days.length > 16 ? 2 : 1,
  );
  bars(
    words.perHour,
    report.hours.map((h) => ({ label: String(h.hour), answered: sum(h.answered), missed: sum(h.missed) })),
    1,
  );

  /** A table: the first column left, the others right-aligned; the header again on each new page. */
  const table = (title: string, head: string[], rows: string[][], widths: number[]) => {
    room(60);
    doc.font('Helvetica-Bold').fontSize(13).fillColor('#000').text(title, MARGIN);
    doc.moveDown(0.3);
    if (rows.length === 0) {
      doc.font('Helvetica').fontSize(10).text(words.none);
      doc.moveDown();
      return;
    }
    const total = widths.reduce((a, b) => a + b, 0);
    const cols = widths.map((w) => (w / total) * width);
    const line = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
      const h = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: (cols[i] as number) - 4 }))) + 4;
      const y = doc.y;
      let x = MARGIN;
      cells.forEach((c, i) => {
        const w = cols[i] as number;
        doc.fillColor('#000').text(c, x + 2, y + 2, { width: w - 4, align: i === 0 ? 'left' : 'right' });
        x += w;
      });
      doc
        .moveTo(MARGIN, y + h)
        .lineTo(MARGIN + width, y + h)
        .strokeColor(bold ? '#444' : '#ccc')
        .lineWidth(0.5)
        .stroke();
      doc.x = MARGIN;
      doc.y = y + h;
    };
    line(head, true);
    for (const r of rows) {
      if (doc.y + 16 > bottom()) {
        doc.addPage();
        line(head, true);
      }
      line(r, false);
    }
    doc.moveDown();
  };

  const percent = (v: number | null) => (v === null ? '–' : `${number.format(Math.round(v * 1000) / 10)}%`);
  table(
    words.queues,
    [
      words.queue,
      words.offered,
      words.answered,
      words.abandoned,
      words.avgWait,
      words.p90Wait,
      say('serviceLevel', { n: report.serviceLevel }),
    ],
    report.queues.map((q) => [
      q.name ? `${q.queue} ${q.name}` : q.queue,
      number.format(q.offered),
      number.format(q.answered),
      number.format(q.abandoned),
      duration(q.avgWait),
      duration(q.p90Wait),
      percent(q.serviceLevel),
    ]),
    [3, 1, 1, 1, 1, 1, 1],
  );
  table(
    words.agents,
    [words.queue, words.agent, words.answered, words.talk, words.notAnswered],
    report.agents.map((a) => [
      a.queue,
      a.agent,
      number.format(a.answered),
      duration(a.talk),
      number.format(a.ringNoAnswer),
    ]),
    [1, 3, 1, 1, 1.4],
  );
  table(
    words.trunks,
    [words.trunk, words.calls, words.inbound, words.outbound, words.minutes, words.peak],
    report.trunks.map((t) => [
      t.trunk,
      number.format(t.calls),
      number.format(t.inbound),
      number.format(t.outbound),
      number.format(Math.round(t.talk / 6) / 10),
      number.format(t.peak),
    ]),
    [3, 1, 1, 1, 1, 1.4],
  );
  doc.end();
  return done;
}
