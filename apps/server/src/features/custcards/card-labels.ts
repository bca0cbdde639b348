import type { UiLanguage } from '@centralino/contract';

/**
 * The labels of the shipped card templates in Italian, looked up by their English text through the templates'
 * `t` filter (`{{ "Last calls" | t }}`). An administrator's own template may use the same labels; any other
 * text goes through unchanged, so a template never breaks on a label missing here.
 */
const ITALIAN: Record<string, string> = {
  Extension: 'Interno',
  Work: 'Ufficio',
  Mobile: 'Cellulare',
  Home: 'Casa',
  Fax: 'Fax',
  Email: 'Email',
  Title: 'Qualifica',
  Phonebook: 'Rubrica',
  Web: 'Web',
  'No contact found': 'Nessun contatto trovato',
  'Last calls': 'Ultime chiamate',
  Date: 'Data',
  Time: 'Ora',
  From: 'Da',
  To: 'A',
  'Duration (s)': 'Durata (s)',
  in: 'entrata',
  out: 'uscita',
  'No calls yet': 'Ancora nessuna chiamata',
  Statistics: 'Statistiche',
  'No data': 'Nessun dato',
  'No rows': 'Nessuna riga',
};

export function cardLabel(text: string, lang: UiLanguage): string {
  return lang === 'it' ? (ITALIAN[text] ?? text) : text;
}
