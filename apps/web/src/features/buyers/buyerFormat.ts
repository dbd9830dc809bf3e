import type { BuyerCampaign } from '@leadex/domain';
import { formatDate } from '../../lib/format';

/** Bill periods are days of the exchange's zone (DESIGN.md §7): show their dates there, wherever the browser is. */
export const formatBillDate = (ts: number) => formatDate(ts);

/** How many ZIPs the Campaigns table spells out before it counts the rest. */
const ZIPS_SHOWN = 3;

/** The "zips" cell: the states, the region's name, or the first ZIPs and how many more. */
export function locationSummary(c: Pick<BuyerCampaign, 'location' | 'state' | 'zips' | 'zipset_name'>): string {
  if (c.location === 'state') return c.state.join(', ');
  if (c.location === 'zipset') return c.zipset_name ? `Region: ${c.zipset_name}` : 'Region';
  const shown = c.zips.slice(0, ZIPS_SHOWN).join(', ');
  return c.zips.length > ZIPS_SHOWN ? `${shown} +${c.zips.length - ZIPS_SHOWN} more` : shown;
}
