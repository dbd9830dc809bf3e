import type {
  Campaign,
  CampaignDeliveryFailure,
  CampaignListItem,
  CampaignSourceFilter,
  CampaignStatusEvent,
  CampaignStatusValue,
  LocationType,
} from '@leadex/domain';
import { statusFlags } from '@leadex/domain';
import type { DeliveryFailureColumns } from '../../db/delivery-failure';
import { toEpochSeconds } from '../../lib/clock';
import { centsToDollars } from '../../lib/money';
import type { CampaignRow, SourceFilterRow, StatusEventRow } from './campaigns.repo';

const EMPTY_NOTIFY = { email: [], sms: [], broadcast_webhooks: [] };

const dollarsOrNull = (cents: number | null) => (cents === null ? null : centsToDollars(cents));
const dollarsOrUndefined = (cents: number | null) => (cents === null ? undefined : centsToDollars(cents));

function asStatus(value: string): CampaignStatusValue {
  return value === 'live' || value === 'pause' ? value : 'draft';
}

/** The buyer's last live delivery failure, or null (DESIGN.md §6). */
export function toDeliveryFailure(row: DeliveryFailureColumns): CampaignDeliveryFailure | null {
  if (row.failureDeliveryId === null || row.failureMessage === null || row.failureAt === null) return null;
  return {
    delivery_id: row.failureDeliveryId,
    delivery: row.failureDelivery ?? '',
    message: row.failureMessage,
    at: row.failureAt.toISOString(),
    ts: toEpochSeconds(row.failureAt),
  };
}

function common(row: CampaignRow) {
  return {
    _id: row.id,
    name: row.name,
    buyer: row.buyerId,
    buyer_name: row.buyerName,
    fixed_id: row.fixedId,
    price: centsToDollars(row.priceCents),
    exclusive: row.shared ? 0 : 1,
    shared_price: row.shared ? dollarsOrUndefined(row.sharedPriceCents) : undefined,
    services: row.services,
    tags: row.tags,
    location: row.location as LocationType,
    state: row.states,
    zips: row.zips,
    zipset: row.zipsetId ?? undefined,
    max: { hourly: row.maxHourly, daily: row.maxDaily, weekly: row.maxWeekly, monthly: row.maxMonthly },
    budget: {
      daily: dollarsOrNull(row.budgetDailyCents),
      weekly: dollarsOrNull(row.budgetWeeklyCents),
      monthly: dollarsOrNull(row.budgetMonthlyCents),
    },
    ts: toEpochSeconds(row.createdAt),
    delivery_failure: toDeliveryFailure(row),
    require_named_consent: row.requireNamedConsent,
    refuse_outside_calling_window: row.refuseOutsideCallingWindow,
  };
}

export function toCampaignListItem(row: CampaignRow): CampaignListItem {
  return { ...common(row), status: statusFlags(asStatus(row.status)) };
}

export function toStatusEvent(event: StatusEventRow): CampaignStatusEvent {
  return {
    status: asStatus(event.status),
    reason: event.reason ?? undefined,
    operator: event.actor,
    operator_name: event.actorName ?? undefined,
    ts: toEpochSeconds(event.at),
  };
}

export function toSourceFilter(row: SourceFilterRow): CampaignSourceFilter {
  return {
    source: row.sourceId,
    source_name: row.sourceName ?? undefined,
    channel: row.channel ?? undefined,
    price: dollarsOrUndefined(row.priceCents),
    shared_price: dollarsOrUndefined(row.sharedPriceCents),
    pct: row.pct,
  };
}

/**
 * A campaign as the API answers it: `_id`, money in dollars, `ts` in epoch seconds, the status
 * flags with the last change and the history. `filters` is left out for buyers (portals §3).
 */
export function toCampaign(row: CampaignRow, history: StatusEventRow[], filters?: SourceFilterRow[]): Campaign {
  const [last] = history;
  const flags = statusFlags(asStatus(row.status));
  return {
    ...common(row),
    zipset_name: row.zipsetName ?? undefined,
    notes: row.notes ?? undefined,
    notify: row.notify ?? EMPTY_NOTIFY,
    time: row.time ?? undefined,
    source_filter: filters?.map(toSourceFilter),
    status: {
      ...flags,
      operator: last?.actor,
      ts: last ? toEpochSeconds(last.at) : undefined,
      reason: last?.reason ?? undefined,
      history: history.map(toStatusEvent),
    },
    tsdate: row.createdAt.toISOString(),
  };
}
