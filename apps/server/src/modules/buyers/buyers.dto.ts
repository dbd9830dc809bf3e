import type { Buyer, BuyerCampaign, BuyerLead, BuyerListItem, BuyerUser, CampaignStatusValue } from '@leadex/domain';
import { statusFlags } from '@leadex/domain';
import { toEpochSeconds } from '../../lib/clock';
import { contactOf, orUndefined } from '../../lib/dto';
import { centsToDollars } from '../../lib/money';
import { toDeliveryFailure } from '../campaigns/campaigns.dto';
import type { UserRow } from '../users/users.service';
import type { BuyerCampaignRow, BuyerLeadRow, BuyerRow } from './buyers.repo';

/** A buyer as the API answers it: `_id`, `ts` in epoch seconds, money in dollars. */
export function toBuyer(row: BuyerRow, users?: UserRow[]): Buyer {
  return {
    _id: row.id,
    username: row.username,
    name: row.name,
    ...contactOf(row),
    notes: orUndefined(row.notes),
    tags: row.tags,
    notify: row.notify,
    bill: {
      pay: row.payMethod as Buyer['bill']['pay'],
      prepay: centsToDollars(row.prepayCents),
      period: row.period as Buyer['bill']['period'],
      grace: row.graceDays,
      threshold: centsToDollars(row.thresholdCents),
      stripe: orUndefined(row.stripeCustomerId),
    },
    autoApproveReturns: row.autoApproveReturns,
    showSource: row.showSource,
    budget_daily: row.budgetDailyCents === null ? null : centsToDollars(row.budgetDailyCents),
    legal_names: row.legalNames,
    ts: toEpochSeconds(row.createdAt),
    users: users?.map(toBuyerUser),
  };
}

export function toBuyerListItem(row: BuyerRow): BuyerListItem {
  return {
    _id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    phone: row.phone,
    state: orUndefined(row.state),
    zip: orUndefined(row.zip),
    ts: toEpochSeconds(row.createdAt),
  };
}

export function toBuyerUser(user: UserRow): BuyerUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    username: orUndefined(user.username),
    hold: user.holdAt ? { ts: toEpochSeconds(user.holdAt) } : undefined,
  };
}

export function toBuyerCampaign(row: BuyerCampaignRow): BuyerCampaign {
  return {
    _id: row.id,
    name: row.name,
    fixed_id: row.fixedId,
    services: row.services,
    location: row.location as BuyerCampaign['location'],
    state: row.states,
    zips: row.zips,
    zipset: orUndefined(row.zipsetId),
    zipset_name: orUndefined(row.zipsetName),
    price: centsToDollars(row.priceCents),
    exclusive: row.shared ? 0 : 1,
    shared_price: row.sharedPriceCents === null ? undefined : centsToDollars(row.sharedPriceCents),
    status: statusFlags(row.status as CampaignStatusValue),
    delivery_failure: toDeliveryFailure(row),
  };
}

export function toBuyerLead(row: BuyerLeadRow): BuyerLead {
  return {
    _id: row.id,
    ts: toEpochSeconds(row.soldAt),
    name: orUndefined(row.name),
    service: row.service,
    zip: row.zip,
    price: centsToDollars(row.priceCents),
  };
}
