import dayjs from 'dayjs';

/** An API timestamp (epoch seconds, DESIGN.md §4) as the screens show it. */
export function formatTimestamp(ts: number | null | undefined): string {
  return ts ? dayjs.unix(ts).format('MM/DD/YYYY h:mm A') : '';
}

export function formatDate(ts: number | null | undefined): string {
  return ts ? dayjs.unix(ts).format('MM/DD/YYYY') : '';
}

/** (555) 123-4567 for 10 digits (an 11-digit number drops its leading 1); anything else as entered. */
export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10) return phone;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** A calendar day as the API gives it (YYYY-MM-DD) as the screens show dates. */
export function formatDay(day: string | null | undefined): string {
  return day ? dayjs(day).format('MM/DD/YYYY') : '';
}
