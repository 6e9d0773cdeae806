// CSV as the exports write it (RFC 4180): fields quoted when they hold a comma, quote or line break, rows ended
// by CRLF, and no cell a spreadsheet would run as a formula.

/**
 * One field. A cell a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) is prefixed
 * with ' (OWASP "CSV injection"); an address or a message may legally start with any of those.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One row with its CRLF. */
export function csvRow(values: readonly string[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
