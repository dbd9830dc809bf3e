/** Money is integer cents inside; the API speaks dollars with two decimals (DESIGN.md §3). */
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);
export const centsToDollars = (cents: number): number => Math.round(cents) / 100;
/** An optional amount (a price or a cost left empty is null) in cents. */
export const centsOrNull = (dollars: number | null | undefined): number | null =>
  dollars === null || dollars === undefined ? null : dollarsToCents(dollars);
/** An amount as the exchange writes it in text (CSVs, mails, messages): dollars with two decimals, 123450 → "1234.50". */
export const formatMoney = (cents: number): string => centsToDollars(cents).toFixed(2);
