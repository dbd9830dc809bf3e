import {
  apiKeyStatus,
  needsPayout,
  type Source,
  type SourceApiKey,
  type SourceChannel,
  type SourceLead,
  type SourceListItem,
  type SourceUser,
  sourceStatus,
} from '@leadex/domain';
import { toEpochSeconds } from '../../lib/clock';
import { contactOf, orUndefined } from '../../lib/dto';
import { centsToDollars } from '../../lib/money';
import type { UserRow } from '../users/users.service';
import type { ApiKeyRow, ChannelRow, SourceLeadRow, SourceRow } from './sources.repo';

const seconds = (date: Date | null): number | undefined => (date ? toEpochSeconds(date) : undefined);

function activity(row: SourceRow) {
  return {
    hold: row.heldAt ? { ts: toEpochSeconds(row.heldAt), reason: orUndefined(row.holdReason) } : undefined,
    lastLeadSent: seconds(row.lastLeadSentAt),
    lastPingSent: seconds(row.lastPingSentAt),
    lastTestLeadSent: seconds(row.lastTestLeadSentAt),
    lastTestPingSent: seconds(row.lastTestPingSentAt),
  };
}

export function toChannel(row: ChannelRow): SourceChannel {
  return { name: row.name, max_cost: row.maxCostCents === null ? null : centsToDollars(row.maxCostCents) };
}

/** A key with its plain text (decrypted by the caller) and its status at `now`. */
export function toApiKey(row: ApiKeyRow, key: string, now: Date): SourceApiKey {
  const hold = seconds(row.heldAt);
  const exp = seconds(row.expiresAt);
  return {
    _id: row.id,
    name: row.name,
    key,
    hold,
    exp,
    canPostLead: row.canPostLead,
    status: apiKeyStatus({ hold, exp }, toEpochSeconds(now)),
    ts: toEpochSeconds(row.createdAt),
    default_service: orUndefined(row.defaultService),
  };
}

export function toSourceUser(user: UserRow): SourceUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    hold: user.holdAt ? { ts: toEpochSeconds(user.holdAt) } : undefined,
  };
}

/** A lead of the source; the buyers' price only for admins (DESIGN.md §8). */
export function toSourceLead(row: SourceLeadRow, forAdmin: boolean): SourceLead {
  return {
    _id: row.id,
    ts: toEpochSeconds(row.createdAt),
    name: orUndefined(row.name),
    service: row.service,
    zip: row.zip,
    channel: orUndefined(row.channel),
    cost: centsToDollars(row.costCents),
    price: forAdmin ? centsToDollars(row.priceCents) : undefined,
    sold: row.sold,
    test: row.test,
  };
}

export interface SourceParts {
  channels: ChannelRow[];
  apikeys: SourceApiKey[];
  users?: UserRow[];
  leads?: SourceLead[];
  /** An admin sees the hold reason and notes; a source user its record without them. */
  forAdmin: boolean;
}

/** A source as the API answers it: `_id`, `ts` in epoch seconds, money in dollars. */
export function toSource(row: SourceRow, parts: SourceParts): Source {
  const act = activity(row);
  return {
    _id: row.id,
    name: row.name,
    contactName: orUndefined(row.contactName),
    ...contactOf(row),
    website: orUndefined(row.website),
    notes: parts.forAdmin ? orUndefined(row.notes) : undefined,
    tags: row.tags,
    tier: orUndefined(row.tier),
    canPostLead: row.canPostLead,
    max_cost: row.maxCostCents === null ? undefined : centsToDollars(row.maxCostCents),
    approved: row.approvedAt !== null,
    needs_payout: needsPayout(row, parts.channels),
    channels: parts.channels.map(toChannel),
    default_service: orUndefined(row.defaultService),
    campaign_services: row.campaignServices,
    answer_format: orUndefined(row.answerFormat),
    ...act,
    hold: act.hold && (parts.forAdmin ? act.hold : { ts: act.hold.ts }),
    status: sourceStatus(act),
    ts: toEpochSeconds(row.createdAt),
    // Keys on hold sort after the others (portals §4).
    apikeys: [...parts.apikeys].sort((a, b) => Number(Boolean(a.hold)) - Number(Boolean(b.hold))),
    users: parts.users?.map(toSourceUser),
    leads: parts.leads,
  };
}

export function toSourceListItem(row: SourceRow, channels: ChannelRow[]): SourceListItem {
  const act = activity(row);
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    status: sourceStatus(act),
    channels: channels.map(toChannel),
    hold: act.hold,
    canPostLead: row.canPostLead,
    max_cost: row.maxCostCents === null ? undefined : centsToDollars(row.maxCostCents),
    approved: row.approvedAt !== null,
    needs_payout: needsPayout(row, channels),
    ts: toEpochSeconds(row.createdAt),
  };
}
