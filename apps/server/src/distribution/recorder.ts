import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { campaigns, pingCalls, pings, sources, unmatchedPings } from '../db/schema';
import { exchangeZone } from '../lib/exchange-zone';
import { dayInZone } from '../lib/time';
import type { PingCall } from './ports';

type PingRow = typeof pings.$inferInsert;
type SourceMark = 'lastPingSentAt' | 'lastTestPingSentAt' | 'lastLeadSentAt' | 'lastTestLeadSentAt';

/**
 * One batch of ping records as a single JSON parameter. A multi-row VALUES of up to 1,000 rows has
 * 10,000 parameters, and building that statement was a tenth of a ping's CPU under load.
 */
function insertPings(rows: PingRow[]) {
  const records = rows.map((r) => ({
    id: r.id,
    source_id: r.sourceId,
    api_key_id: r.apiKeyId ?? null,
    channel: r.channel ?? null,
    service: r.service,
    zip: r.zip,
    price_cents: r.priceCents ?? null,
    reason: r.reason ?? null,
    test: r.test ?? false,
    created_at: r.createdAt.toISOString(),
  }));
  return sql`
    insert into ${pings} (id, source_id, api_key_id, channel, service, zip, price_cents, reason, test, created_at)
    select id, source_id, api_key_id, channel, service, zip, price_cents, reason, test, created_at
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
      id text, source_id text, api_key_id text, channel text, service text, zip text,
      price_cents integer, reason text, test boolean, created_at timestamptz)
    on conflict do nothing`;
}

/** A Ping/Post buyer's ping, with the exchange's ping (a source's ping) or lead (POST /api/lead) it was for. */
export type PingCallRecord = PingCall & { pingId: string | null; leadId: string | null };

/** One batch of Ping/Post pings as a single JSON parameter, like the ping records. */
function insertPingCalls(rows: PingCallRecord[]) {
  const records = rows.map((r) => ({
    id: r.id,
    ping_id: r.pingId,
    lead_id: r.leadId,
    buyer_id: r.buyerId,
    delivery_id: r.deliveryId,
    outcome: r.outcome,
    bid_cents: r.bidCents,
    buyer_ping_id: r.buyerPingId,
    status_code: r.statusCode,
    request: r.request,
    response: r.response,
    error: r.error,
    duration_ms: r.durationMs,
    at: r.at.toISOString(),
  }));
  return sql`
    insert into ${pingCalls} (id, ping_id, lead_id, buyer_id, delivery_id, outcome, bid_cents, buyer_ping_id,
      status_code, request, response, error, duration_ms, at)
    select id, ping_id, lead_id, buyer_id, delivery_id, outcome, bid_cents, buyer_ping_id, status_code, request,
      response, error, duration_ms, at
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(
      id text, ping_id text, lead_id text, buyer_id text, delivery_id text, outcome text, bid_cents integer,
      buyer_ping_id text, status_code integer, request text, response text, error text, duration_ms integer,
      at timestamptz)
    on conflict do nothing`;
}

const iso = (at: Date | undefined) => at?.toISOString() ?? null;

/** Every source's "last sent" marks in one statement; a mark only ever moves forward. */
function updateSourceMarks(marks: Map<string, Partial<Record<SourceMark, Date>>>) {
  const records = [...marks].map(([id, m]) => ({
    id,
    ping: iso(m.lastPingSentAt),
    test_ping: iso(m.lastTestPingSentAt),
    lead: iso(m.lastLeadSentAt),
    test_lead: iso(m.lastTestLeadSentAt),
  }));
  return sql`
    update ${sources} s set
      last_ping_sent_at = greatest(s.last_ping_sent_at, r.ping),
      last_test_ping_sent_at = greatest(s.last_test_ping_sent_at, r.test_ping),
      last_lead_sent_at = greatest(s.last_lead_sent_at, r.lead),
      last_test_lead_sent_at = greatest(s.last_test_lead_sent_at, r.test_lead)
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
      as r(id text, ping timestamptz, test_ping timestamptz, lead timestamptz, test_lead timestamptz)
    where s.id = r.id`;
}

/** Every campaign's last sale (for rotation on ties) in one statement. */
function updateLastSold(sold: Map<string, Date>) {
  const records = [...sold].map(([id, at]) => ({ id, at: at.toISOString() }));
  return sql`
    update ${campaigns} c set last_sold_at = greatest(c.last_sold_at, r.at)
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(id text, at timestamptz)
    where c.id = r.id`;
}

/** A batch is written as soon as this many records wait (besides the engine's tick every second). */
const BATCH_ROWS = 1000;

/**
 * At most this many ping records (and as many Ping/Post buyers' pings) wait for a write: about
 * 15 MB. Reached only when the database cannot keep up or is away (a write under way holds the next
 * batch back); records beyond it are dropped and said so once, as records of a failed write are,
 * rather than held until the process runs out of memory (issue 28). The pings themselves were
 * answered; only their statistics miss them.
 */
export const MAX_QUEUED_RECORDS = 20_000;

/**
 * Writes what the hot paths only note in memory (ping records, Ping/Post buyers' pings,
 * unmatched-ping counts, the sources' "last sent" marks, campaigns' last sale for rotation) in
 * batches, so a ping waits on no database round trip and a sale touches no hot row (DESIGN.md §5
 * write path).
 */
export class Recorder {
  // Every batch below is emptied by each write (the engine's tick every second, or BATCH_ROWS):
  // the lists hold at most MAX_QUEUED_RECORDS; the maps one entry per source, campaign, or
  // (day, ZIP, service) seen since the last write.
  private pingRows: PingRow[] = [];
  private pingCallRows: PingCallRecord[] = [];
  private marks = new Map<string, Partial<Record<SourceMark, Date>>>();
  private sold = new Map<string, Date>();
  /** Buyer Gaps (DESIGN.md §8b) by New York day, ZIP and service: what nobody bought. */
  private gaps = new Map<string, { day: string; zip: string; service: string; n: number }>();
  /** Records dropped at the limit since the last write (reported once, when the first is dropped). */
  private dropped = 0;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** How many ping records and Ping/Post buyers' pings wait for a write. */
  get queued(): number {
    return this.pingRows.length + this.pingCallRows.length;
  }

  ping(row: PingRow): void {
    if (this.keep(this.pingRows, 1)) this.pingRows.push(row);
    this.mark(row.sourceId, row.test ? 'lastTestPingSentAt' : 'lastPingSentAt', row.createdAt);
    // A ping no campaign priced is a Buyer Gap; a test ping never counts.
    if ((row.priceCents === null || row.priceCents === undefined) && !row.test)
      this.gap(row.zip, row.service, row.createdAt);
    this.flushIfFull(this.pingRows);
  }

  /** The pings of Ping/Post buyers for one ping or lead (DESIGN.md §6: every outbound call is logged). */
  pingCalls(rows: PingCallRecord[]): void {
    if (this.keep(this.pingCallRows, rows.length)) this.pingCallRows.push(...rows);
    this.flushIfFull(this.pingCallRows);
  }

  /** Whether `n` more records fit the limit; the first refused since the last write is reported. */
  private keep(list: unknown[], n: number): boolean {
    if (list.length + n <= MAX_QUEUED_RECORDS) return true;
    if (this.dropped === 0)
      this.onError(new Error(`ping records: ${MAX_QUEUED_RECORDS} wait for the database; dropping the next ones`));
    this.dropped += n;
    return false;
  }

  /** A batch is full: written now, unless a write is under way (it holds this batch back: one queued write, not one a ping). */
  private flushIfFull(list: unknown[]): void {
    if (list.length >= BATCH_ROWS && !this.flushing) void this.flush();
  }

  /** A real ping or direct lead that no campaign would buy. */
  gap(zip: string, service: string, at: Date): void {
    // A New York day, so a month's Buyer Gaps are the New York month's (DESIGN.md §8b).
    const day = this.dayOf(exchangeZone(), at);
    const key = `${day}|${zip}|${service}`;
    const gap = this.gaps.get(key) ?? { day, zip, service, n: 0 };
    gap.n += 1;
    this.gaps.set(key, gap);
  }

  /** The last day computed, by zone and UTC minute: a zone's day is the same all through a UTC minute. */
  private lastDay = { zone: '', minute: Number.NaN, day: '' };

  /** `dayInZone`, computed once a minute rather than for every unbought ping (a zoned date costs ~10 µs). */
  private dayOf(zone: string, at: Date): string {
    const minute = Math.floor(at.getTime() / 60_000);
    const last = this.lastDay;
    if (last.zone === zone && last.minute === minute) return last.day;
    this.lastDay = { zone, minute, day: dayInZone(zone, at) };
    return this.lastDay.day;
  }

  mark(sourceId: string, mark: SourceMark, at: Date): void {
    const entry = this.marks.get(sourceId) ?? {};
    const previous = entry[mark];
    if (!previous || previous < at) entry[mark] = at;
    this.marks.set(sourceId, entry);
  }

  campaignSold(campaignId: string, at: Date): void {
    this.sold.set(campaignId, at);
  }

  /**
   * Writes everything noted so far. Writes run one after another: a flush called while one is under
   * way waits for it, then writes what was noted since (the running write took its batch already).
   */
  flush(): Promise<void> {
    const next = (this.flushing ?? Promise.resolve()).then(() => this.write());
    this.flushing = next;
    void next.finally(() => {
      if (this.flushing === next) this.flushing = null;
    });
    return next;
  }

  private async write(): Promise<void> {
    const rows = this.pingRows;
    const calls = this.pingCallRows;
    const marks = this.marks;
    const sold = this.sold;
    const gaps = this.gaps;
    this.pingRows = [];
    this.pingCallRows = [];
    this.marks = new Map();
    this.sold = new Map();
    this.gaps = new Map();
    this.dropped = 0;
    try {
      if (rows.length > 0) await this.db.execute(insertPings(rows));
      if (calls.length > 0) await this.db.execute(insertPingCalls(calls));
      if (gaps.size > 0) {
        await this.db
          .insert(unmatchedPings)
          .values([...gaps.values()])
          .onConflictDoUpdate({
            target: [unmatchedPings.day, unmatchedPings.zip, unmatchedPings.service],
            set: { n: sql`${unmatchedPings.n} + excluded.n` },
          });
      }
      if (marks.size > 0) await this.db.execute(updateSourceMarks(marks));
      if (sold.size > 0) await this.db.execute(updateLastSold(sold));
    } catch (error) {
      this.onError(error);
    }
  }
}
