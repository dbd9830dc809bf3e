import { DEFAULT_EXCHANGE_ZONE, dayInTimeZone, formatZonedDate, formatZonedTime } from '@leadex/domain';
import dayjs from 'dayjs';

/**
 * The exchange's time zone (docs/decisions.md "One clock"): every screen shows its times in it, never
 * in the browser's. The session claims carry it (lib/session.ts sets it before any screen renders).
 */
let exchangeZone = DEFAULT_EXCHANGE_ZONE;

export function setExchangeZone(zone: string | null | undefined): void {
  exchangeZone = zone || DEFAULT_EXCHANGE_ZONE;
}

export const currentExchangeZone = (): string => exchangeZone;

/** An API timestamp (epoch seconds, DESIGN.md §4) as the screens show it: 11/27/2026 3:31 AM ET. */
export function formatTimestamp(ts: number | null | undefined): string {
  return ts ? formatZonedTime(new Date(ts * 1000), exchangeZone) : '';
}

/** The day of an API timestamp in the exchange's zone: 11/27/2026. */
export function formatDate(ts: number | null | undefined): string {
  return ts ? formatZonedDate(new Date(ts * 1000), exchangeZone) : '';
}

/** Today in the exchange's zone as YYYY-MM-DD ("Today", date ranges and date pickers count from it). */
export function todayInExchangeZone(now: Date): string {
  return dayInTimeZone(now, exchangeZone);
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

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Dollars as the screens show money ($1,234.50); empty when there is no amount. */
export const formatMoney = (dollars: number | null | undefined): string =>
  dollars === null || dollars === undefined ? '' : money.format(dollars);
