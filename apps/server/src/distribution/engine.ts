import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { sha256Hex } from '../lib/secrets';
import { runAuction } from './auction';
import { budgetSlots, buyerSpentToday, hasBudget, MemoryBudgetSpend, spentNow } from './budgets';
import { MemoryCapCounts, setCaps } from './caps';
import { RecentSales } from './duplicates';
import { bidsFor } from './eligibility';
import { bumpEngineVersion, type EngineInput, readEngineVersion } from './engine-version';
import type { EngineSnapshot, IndexedApiKey, IndexedSource } from './index';
import { loadSnapshot, loadZipStates } from './load-snapshot';
import { Recorder } from './recorder';
import type { Bid, CapCounts, IndexedCampaign, LeadFacts } from './types';

/** The caller of the public API, resolved from its API key. */
export interface SourceCaller {
  key: IndexedApiKey;
  source: IndexedSource;
}

export interface EngineDeps {
  db: Db;
  clock: Clock;
  config: Config;
  onError(error: unknown): void;
}

/** How often each process checks for changes made elsewhere (the issue asks for 2 s at most). */
const REFRESH_MS = 1000;
const DAY_MS = 86_400_000;

/**
 * The distribution engine's state in one process: the campaign index, cap counts and recent
 * sales in memory, refreshed from the database every second so a change made through any process
 * is seen here within 2 s.
 */
export function createEngine({ db, clock, config, onError }: EngineDeps) {
  // What this process holds (issue 28: every map has a limit or an expiry): the snapshot and the cap
  // counts are replaced whole at each refresh; the ZIPs are a fixed table; the recent sales and the
  // recorder's batches carry their own bounds (duplicates.ts, recorder.ts).
  let snapshot: EngineSnapshot | null = null;
  let zipStates = new Map<string, string>();
  let capCounts = new MemoryCapCounts(() => clock.now());
  let budgetSpend = new MemoryBudgetSpend();
  let version = '';
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  const recentSales = new RecentSales();
  const recorder = new Recorder(db, onError);

  async function refresh(force = false): Promise<void> {
    const current = await readEngineVersion(db);
    if (force || current !== version || !snapshot) {
      const next = await loadSnapshot(db);
      // Rotation state sold in this process since the last load is newer than the database's.
      if (snapshot) {
        const sold = new Map(snapshot.campaigns.map((c) => [c.id, c.lastSoldAt]));
        for (const c of next.campaigns) c.lastSoldAt = Math.max(c.lastSoldAt, sold.get(c.id) ?? 0);
      }
      snapshot = next;
      version = current;
    }
    const now = clock.now();
    const capped = snapshot.campaigns.filter((c) => setCaps(c).length > 0);
    capCounts = await MemoryCapCounts.read(db, capped, () => clock.now());
    const budgeted = snapshot.campaigns.filter(hasBudget);
    const owners = new Set(budgeted.flatMap((c) => [c.id, c.buyerId]));
    budgetSpend = await MemoryBudgetSpend.read(db, [...owners], now);
    await recentSales.refresh(db, new Date(now.getTime() - snapshot.settings.duplicateWindowDays * DAY_MS));
  }

  function current(): EngineSnapshot {
    if (!snapshot) throw new Error('the engine is not started');
    return snapshot;
  }

  return {
    async start(): Promise<void> {
      zipStates = await loadZipStates(db);
      await refresh(true);
      timer = setInterval(() => {
        if (ticking) return;
        ticking = refresh()
          .then(() => recorder.flush())
          .catch(onError)
          .finally(() => {
            ticking = null;
          });
      }, REFRESH_MS);
      timer.unref();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      // A refresh under way would otherwise read a closing database, or overwrite state after stop.
      await ticking;
      await recorder.flush();
    },

    /** Reloads at once: after a change made through this process. */
    reload: () => refresh(true),

    /**
     * Writes a change the engine depends on: `work` runs in one transaction with the version bump of
     * `what`, one input or several (so every process reloads within REFRESH_MS), and once it has
     * committed this process reloads at once, so the next request already sees it. A failed reload is reported, not thrown:
     * the change is committed, and the version poll catches up within a second.
     */
    async change<T>(what: EngineInput | readonly EngineInput[], work: (tx: Tx) => Promise<T>): Promise<T> {
      const result = await db.transaction(async (tx) => {
        const out = await work(tx);
        for (const input of typeof what === 'string' ? [what] : what) await bumpEngineVersion(tx, input);
        return out;
      });
      await refresh(true).catch(onError);
      return result;
    },
    /** Writes the batched records now (tests, shutdown). */
    flush: () => recorder.flush(),

    snapshot: current,
    recorder,
    recentSales,
    /** The lead caps' counts and the budgets' spend of the current periods, as this process knows them. */
    capCounts: (): CapCounts => {
      const counts = capCounts;
      const spend = budgetSpend;
      return { get: (id) => counts.get(id), spent: (owner, period, start) => spend.spent(owner, period, start) };
    },
    /** What a campaign and its buyer spent in the current periods (the campaign screens), from the database. */
    budgetSpent: (campaignId: string, buyerId: string, zone: string | null) =>
      spentNow(db, { id: campaignId, buyerId, zone }, clock.now()),
    /** What a buyer spent today against its daily budget (the buyer screen), from the database. */
    buyerSpentToday: (buyerId: string) => buyerSpentToday(db, buyerId, clock.now()),
    stateOf: (zip: string): string | null => zipStates.get(zip) ?? null,
    config,

    /** Resolves the API key of a public call, from memory (DESIGN.md §5 rule 1). */
    authenticate(apiKey: string | undefined, options: { direct: boolean }): SourceCaller {
      if (!apiKey)
        throw new AppError(
          'unauthenticated',
          'An API key is required: send Authorization: Bearer <key> (or HTTP Basic with the key as password), or an apikey field',
        );
      const snap = current();
      const key = snap.keysByHash.get(sha256Hex(apiKey.trim()));
      const source = key ? snap.sources.get(key.sourceId) : undefined;
      if (!key || !source) throw new AppError('unauthenticated', 'Unknown API key');
      const now = clock.now().getTime();
      if (key.heldAt) throw new AppError('forbidden', 'This API key is on hold', { reason: 'held' });
      if (key.expiresAt !== null && key.expiresAt <= now)
        throw new AppError('forbidden', 'This API key has expired', { reason: 'expired' });
      if (source.heldAt) throw new AppError('forbidden', 'This source is on hold', { reason: 'held' });
      if (options.direct && !(key.canPostLead && source.canPostLead)) {
        throw new AppError('forbidden', 'This source is not approved to post leads directly; use ping and post');
      }
      return { key, source };
    },

    /**
     * A source as if it called with one of its active keys (the simulator, the demo seed). `direct`:
     * as POST /api/lead, which only a source and key approved to post directly may call (the
     * simulator's Direct Lead follows the rule of /api/lead; its multiple leads do not).
     */
    callerFor(sourceId: string, options: { direct?: boolean } = {}): SourceCaller {
      const snap = current();
      const source = snap.sources.get(sourceId);
      if (!source) throw AppError.notFound('Source');
      const now = clock.now().getTime();
      const active = [...snap.keysByHash.values()].filter(
        (k) => k.sourceId === sourceId && !k.heldAt && (k.expiresAt === null || k.expiresAt > now),
      );
      if (active.length === 0) throw AppError.field('Source', 'The source has no active API key');
      if (options.direct) {
        if (source.heldAt) throw new AppError('forbidden', 'This source is on hold', { reason: 'held' });
        const key = active.find((k) => k.canPostLead);
        if (!source.canPostLead || !key)
          throw new AppError('forbidden', 'This source is not approved to post leads directly; use ping and post');
        return { key, source };
      }
      const key = active[0] as (typeof active)[number];
      return { key: { ...key, canPostLead: true }, source: { ...source, canPostLead: true } };
    },

    /** The source's payout for a sold lead: the channel's max cost if set, else the source's; internal sources get nothing. */
    payoutCents(source: IndexedSource, channel: string | null): number {
      const channelCost = channel ? source.channels.get(channel) : undefined;
      return channelCost ?? source.maxCostCents ?? 0;
    },

    /** The campaigns to consider for a lead: the one its Branded Id names, else those buying its service. */
    campaignsFor(service: string, campaign: string | null): readonly IndexedCampaign[] {
      const snap = current();
      if (campaign) {
        const named = snap.campaignByFixedId(campaign);
        return named ? [named] : [];
      }
      return snap.campaignsForService(service);
    },

    /** A ping's bids, from memory only: candidates by service and location, then eligibility. */
    candidateBids(facts: LeadFacts) {
      const campaigns = facts.campaign
        ? this.campaignsFor(facts.service, facts.campaign)
        : current().candidates(facts.service, facts.zip, facts.state);
      return bidsFor(campaigns, facts, capCounts);
    },

    /** The auction over these bids, with the exchange's shared-buyers setting. */
    auction(bids: readonly Bid[], minRevenueCents: number) {
      return runAuction(bids, { maxSharedBuyers: current().settings.sharedBuyers, minRevenueCents });
    },

    /** The ping's decision, from memory only: candidates by service and location, eligibility, auction. */
    quote(facts: LeadFacts, minRevenueCents: number) {
      const { bids, considered } = this.candidateBids(facts);
      return { result: this.auction(bids, minRevenueCents), considered };
    },

    /** After a sale commits: count it here at once (other processes see it at their next refresh). */
    noteSale(
      campaignIds: string[],
      buyerIds: string[],
      hashes: (string | null)[],
      at: Date,
      countsCaps: boolean,
      /** The matches' prices, in the order of `campaignIds`: they count toward the budgets. */
      pricesCents: readonly number[] = [],
    ): void {
      const snap = current();
      for (const [i, id] of campaignIds.entries()) {
        const c = snap.campaigns.find((x) => x.id === id);
        if (!c) continue;
        c.lastSoldAt = at.getTime();
        recorder.campaignSold(id, at);
        if (countsCaps) capCounts.increment(c, at);
        const price = pricesCents[i];
        if (countsCaps && price !== undefined) budgetSpend.add(budgetSlots(c, price, at));
      }
      for (const buyerId of buyerIds) recentSales.add(hashes, buyerId, at);
    },

    duplicateWindowStart(now: Date): Date {
      return new Date(now.getTime() - current().settings.duplicateWindowDays * DAY_MS);
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
