// CSV fields as RFC 4180 writes them, for every export (the subscribers command, /admin's exports).

/**
 * One field. A cell a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) is prefixed
 * with ' (OWASP "CSV injection"); an address may legally start with most of those.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
