import { hash } from 'node:crypto';
import { consentNamesAny } from '@leadex/domain';
import { formatLocalClock, hoursOfDay, isWithinWindow, localClock } from '../lib/time';
import { budgetFailure } from './budgets';
import { deferredAtPing, type SharedFieldFilter, verdictsOf } from './field-filters';
import {
  type Bid,
  CAP_PERIODS,
  type CapCounts,
  type Eligibility,
  type ExplanationEntry,
  type IndexedCampaign,
  type LeadFacts,
  type Rule,
  type SourceFilter,
} from './types';

/** An exclusion: the first rule a campaign failed, and why in words an admin reads. */
type Failure = { eligible: false; rule: Rule; detail: string };

const fail = (rule: Rule, detail: string): Failure => ({ eligible: false, rule, detail });

/** 2^48: the hash's first 6 bytes, read as an integer, divided by this land in [0, 1) exactly. */
const HASH_RANGE = 2 ** 48;

/**
 * A deterministic draw in [0, 1) for a lead and a campaign: sha256(`key:campaignId`).
 * Per campaign, so two throttled campaigns of one source admit different slices of its leads
 * rather than the same ones; from the ping or lead id, so a re-run (post after ping, tests) agrees.
 */
export function throttleDraw(leadKey: string, campaignId: string): number {
  const digest = hash('sha256', `${leadKey}:${campaignId}`, 'buffer');
  return digest.readUIntBE(0, 6) / HASH_RANGE;
}

/** Rule 1 (the campaign's part; the source and key checks belong to the request). */
function checkStatus(c: IndexedCampaign): Failure | null {
  if (c.status === 'live') return null;
  return fail('status', c.status === 'pause' ? 'campaign is paused' : 'campaign is a draft');
}

/** Rule 8: a request naming a Branded Id goes to that campaign only (ids compared case-insensitively). */
function checkBranded(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  if (lead.campaign === null || lead.campaign === '') return null;
  if (c.fixedId.toLowerCase() === lead.campaign.toLowerCase()) return null;
  return fail('branded', `request names campaign ${lead.campaign}`);
}

/** Rule 2. */
function checkService(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  if (c.services.has(lead.service)) return null;
  return fail('service', `service '${lead.service}' not in campaign services`);
}

/** Rule 3. A ZIP missing from the ZIP table has no state, so only ZIP-list and region campaigns can take it. */
function checkLocation(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  switch (c.location) {
    case 'state':
      if (lead.state === null) return fail('location', `ZIP ${lead.zip} has no state in the ZIP table`);
      return c.states.has(lead.state)
        ? null
        : fail('location', `state ${lead.state} (ZIP ${lead.zip}) not in campaign states`);
    case 'zip':
      return c.zips.has(lead.zip) ? null : fail('location', `ZIP ${lead.zip} not in campaign ZIPs`);
    case 'zipset':
      return c.zips.has(lead.zip) ? null : fail('location', `ZIP ${lead.zip} not in region`);
  }
}

/** Rule 4. */
function checkTime(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  const time = c.time;
  if (time === null || isWithinWindow(time, lead.now)) return null;
  const clock = localClock(time.zone, lead.now);
  if (clock === null) return fail('time', `unknown time zone '${time.zone}'`);
  const { start, end } = hoursOfDay(time, clock.day);
  return fail('time', `outside hours ${start}-${end} ${time.zone} (now ${formatLocalClock(clock)})`);
}

/**
 * Field filters (issue 33): every rule of the lead's service must hold. At ping, a rule on a post-only
 * field the ping does not carry cannot be judged: it is deferred (`pending`) and checked at post.
 * A lead's fields are not changed once its facts are built, so a rule's verdict is kept for the lead.
 */
function checkFields(c: IndexedCampaign, lead: LeadFacts): Failure | readonly string[] | null {
  const rules = c.fieldFilters?.get(lead.service);
  if (!rules || rules.length === 0) return null;
  const fields = lead.fields;
  const atPing = lead.stage === 'ping';
  const verdicts = verdictsOf(fields, (rules[0] as SharedFieldFilter).slots);
  // Whether a post-only field came with the ping after all: then the deferred list is this ping's own.
  let postOnlySent = false;
  for (const rule of rules) {
    const value = fields[rule.field];
    if (rule.postOnly && atPing) {
      if (value === undefined) continue;
      postOnlySent = true;
    }
    let verdict = verdicts[rule.slot];
    if (verdict === 0) {
      verdict = rule.test(value) ? 1 : 2;
      verdicts[rule.slot] = verdict;
    }
    if (verdict === 2) return fail('filter', `Filter: ${rule.text} (lead: ${rule.show(value)})`);
  }
  if (!atPing) return null;
  if (!postOnlySent) return deferredAtPing(rules);
  let pending: string[] | null = null;
  for (const rule of rules) {
    if (!rule.postOnly || fields[rule.field] !== undefined) continue;
    pending ??= [];
    if (!pending.includes(rule.field)) pending.push(rule.field);
  }
  return pending;
}

/**
 * Rule 5. Only a positive limit is a cap: null/undefined is "no cap" by contract, a monthly 0
 * is "no cap" by the spec, and an hourly/daily/weekly 0 is read the same way, because the
 * campaign form saves an emptied number field as 0 and a buyer who wants no leads pauses the
 * campaign instead. Counts are those of the current periods (see time.ts currentPeriods).
 */
function checkCaps(c: IndexedCampaign, caps: CapCounts): Failure | null {
  const counts = caps.get(c.id);
  for (const period of CAP_PERIODS) {
    const limit = c.caps[period];
    if (limit === null || limit === undefined || limit <= 0) continue;
    const count = counts?.[period] ?? 0;
    if (count >= limit) return fail('cap', `${period} cap ${limit} reached`);
  }
  return null;
}

/**
 * The source-restriction row that applies to the lead: its source, and its channel or any channel.
 * A row naming the lead's channel wins over a row for the whole source, being the more specific.
 */
export function matchSourceFilter(filters: readonly SourceFilter[], lead: LeadFacts): SourceFilter | null {
  let anyChannel: SourceFilter | null = null;
  for (const row of filters) {
    if (row.sourceId !== lead.sourceId) continue;
    if (row.channel === null) anyChannel ??= row;
    else if (lead.channel !== null && row.channel === lead.channel) return row;
  }
  return anyChannel;
}

/** "50%", "33.3%": a throttle share as a buyer typed it. */
const percent = (pct: number): string => `${Math.round(pct * 1000) / 10}%`;

/** Rule 6: returns the matching row (or null when the campaign has no restrictions) or the failure. */
function checkSource(c: IndexedCampaign, lead: LeadFacts): { row: SourceFilter | null } | Failure {
  if (c.sourceFilters.length === 0) return { row: null };
  const row = matchSourceFilter(c.sourceFilters, lead);
  if (row === null) {
    const channel = lead.channel === null ? '' : `, channel ${lead.channel}`;
    return fail('source', `source not in source restrictions (${lead.sourceId}${channel})`);
  }
  // pct >= 1 admits every lead without hashing; the draw is < 1, so the result would be the same.
  if (row.pct < 1 && !(throttleDraw(lead.key, c.id) < row.pct)) {
    return fail('source', `${percent(row.pct)} throttle: lead not in the admitted share`);
  }
  return { row };
}

/**
 * Budget caps in dollars (issue 33): a sale at the campaign's price for this lead must not pass a
 * budget of the campaign or its buyer. Checked at the exclusive price, after the source rule that
 * may change it; the sale's statement checks again at the price actually paid.
 */
function checkBudget(c: IndexedCampaign, priceCents: number, lead: LeadFacts, caps: CapCounts): Failure | null {
  if (!caps.spent) return null;
  const detail = budgetFailure(c, priceCents, { spent: caps.spent.bind(caps) }, lead.now);
  return detail === null ? null : fail('budget', detail);
}

/** A buyer's own suppression list holds the lead's contact (issue 34): that buyer only is left out. */
function checkSuppressed(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  const list = lead.suppressedBuyers?.get(c.buyerId);
  return list === undefined ? null : fail('suppressed', `on the buyer's suppression list "${list}"`);
}

/** Rule 9. */
function checkDuplicate(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  if (!lead.duplicateBuyerIds.has(c.buyerId)) return null;
  return fail('duplicate', 'buyer already bought this phone or email');
}

/**
 * Named consent (issue 34 item 4): a campaign that requires it, or any campaign for a Medicare service
 * (42 CFR 422.2274), buys only a lead whose consent language names one of its buyer's legal names.
 * Unknown at a ping (no consent yet): checked at the post.
 */
function checkNamedConsent(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  if (lead.consentKey === undefined) return null;
  const medicare = c.medicareServices?.has(lead.service) ?? false;
  if (!c.requireNamedConsent && !medicare) return null;
  if (consentNamesAny(lead.consentKey, c.legalNameKeys ?? [])) return null;
  const why = medicare ? `service '${lead.service}' is Medicare` : 'campaign requires named consent';
  if (!c.legalNameKeys?.length) return fail('consent', `${why}, and the buyer has given no legal name`);
  if (lead.consentKey === '') return fail('consent', `${why}, and the lead has no consent language`);
  return fail('consent', `${why}: the consent language does not name the buyer`);
}

/** The consumer's calling window (issue 34 item 5): a campaign whose buyer calls at once refuses a lead outside it. */
function checkCallingWindow(c: IndexedCampaign, lead: LeadFacts): Failure | null {
  if (!c.refuseOutsideCallingWindow || !lead.outsideCallingWindow) return null;
  const outside = lead.outsideCallingWindow();
  return outside === null ? null : fail('calling_window', `outside the consumer's calling window: ${outside}`);
}

/** Whether campaign `c` may buy `lead` (DESIGN.md §5 rules 1-6, 8, 9, named consent, the calling window and the field filters): the first failing rule, or the effective prices. */
export function checkEligibility(c: IndexedCampaign, lead: LeadFacts, caps: CapCounts): Eligibility {
  const early =
    checkStatus(c) ??
    checkSuppressed(c, lead) ??
    checkBranded(c, lead) ??
    checkService(c, lead) ??
    checkLocation(c, lead) ??
    checkTime(c, lead) ??
    checkNamedConsent(c, lead) ??
    checkCallingWindow(c, lead);
  if (early) return early;
  const fields = checkFields(c, lead);
  if (fields !== null && 'eligible' in fields) return fields;
  const capped = checkCaps(c, caps);
  if (capped) return capped;
  const source = checkSource(c, lead);
  if ('eligible' in source) return source;
  const row = source.row;
  const priceCents = row?.priceCents ?? c.priceCents;
  const budget = checkBudget(c, priceCents, lead, caps);
  if (budget) return budget;
  const duplicate = checkDuplicate(c, lead);
  if (duplicate) return duplicate;
  return {
    eligible: true,
    priceCents,
    sharedPriceCents: c.shared ? (row?.sharedPriceCents ?? c.sharedPriceCents) : null,
    ...(fields ? { pending: fields } : {}),
  };
}

/** For every campaign, whether it could bid and, if not, the first rule that excluded it (admins' explanation). */
export function explain(campaigns: Iterable<IndexedCampaign>, lead: LeadFacts, caps: CapCounts): ExplanationEntry[] {
  const entries: ExplanationEntry[] = [];
  for (const c of campaigns) {
    entries.push({ campaignId: c.id, buyerId: c.buyerId, name: c.name, eligibility: checkEligibility(c, lead, caps) });
  }
  return entries;
}

/** The bids of the eligible campaigns, with the explanation of every campaign considered. */
export function bidsFor(
  campaigns: Iterable<IndexedCampaign>,
  lead: LeadFacts,
  caps: CapCounts,
): { bids: Bid[]; considered: ExplanationEntry[] } {
  const bids: Bid[] = [];
  const considered: ExplanationEntry[] = [];
  for (const c of campaigns) {
    const eligibility = checkEligibility(c, lead, caps);
    considered.push({ campaignId: c.id, buyerId: c.buyerId, name: c.name, eligibility });
    if (eligibility.eligible) {
      bids.push({
        campaignId: c.id,
        buyerId: c.buyerId,
        priceCents: eligibility.priceCents,
        sharedPriceCents: eligibility.sharedPriceCents,
        lastSoldAt: c.lastSoldAt,
      });
    }
  }
  return { bids, considered };
}
