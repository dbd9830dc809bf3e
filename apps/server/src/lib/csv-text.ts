/**
 * A text a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) gets a leading
 * apostrophe: lead fields come from sources, and an export must not carry their formulas (OWASP
 * CSV injection).
 */
export function csvText(value: string | null | undefined): string {
  if (!value) return '';
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
