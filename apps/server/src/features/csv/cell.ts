/** One cell of a CSV file the console exports (audit log, call history). */
export function csvCell(value: string): string {
  // Formula injection: a cell starting with = + - @ is shown as text by spreadsheets.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
