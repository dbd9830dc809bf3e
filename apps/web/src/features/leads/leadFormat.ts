/** Dollars as the leads screens show them ($1,234.50); empty when there is no amount. */
export function formatMoney(dollars: number | null | undefined): string {
  if (dollars === undefined || dollars === null) return '';
  return dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
}

/**
 * A URL a source sent, as a link only when it is http or https (issue 12: what a source sent is shown,
 * never run: `javascript:` and the like stay text).
 */
export function safeHref(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Direct or Ping/Post (portals §3: derived from ping_id, no_ping meaning Direct). */
export function leadType(pingId: string | undefined): 'Direct' | 'Ping/Post' {
  return pingId === 'no_ping' ? 'Direct' : 'Ping/Post';
}
