import type {
  BuyerReportRow,
  BuyerStats,
  DailyFigures,
  ReportFigures,
  ReportQuery,
  SourceReportRow,
} from '@leadex/domain';
import { stringify } from 'csv-stringify/sync';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaigns, unmatchedPings } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';
import { centsToDollars, dollarsToCents, formatMoney } from '../../lib/money';
import { dayInZone, periodStart } from '../../lib/time';
import type { BuyersService, Viewer } from '../buyers/buyers.service';
import { leadDateSpan } from '../leads/date-range';
import { csvText } from '../leads/leads.service';
import { type BuyerFigures, type SourceFigures, statsRepo } from './stats.repo';

/** The dashboard's figures for this month (DESIGN.md §8b). */
export function createStatsService(db: Db, clock: Clock, buyers: Pick<BuyersService, 'findRow'>) {
  const spanOf = (query: ReportQuery) => leadDateSpan(query.dateq, clock.now(), query);
  /** This New York month, whole: it ends where the next begins, so with a mock date in the past later sales are not counted. */
  const thisMonth = () => {
    const monthStart = periodStart('monthly', exchangeZone(), clock.now());
    const monthEnd = periodStart('monthly', exchangeZone(), new Date(monthStart.getTime() + 32 * 86_400_000));
    return { monthStart, monthEnd };
  };
  return {
    async get() {
      const { monthStart, monthEnd } = thisMonth();
      const [quota] = await db
        .select({
          totalQuota: sql<number>`coalesce(sum(${campaigns.maxMonthly}), 0)::int`,
          totalQuotaValueCents: sql<number>`coalesce(sum(${campaigns.maxMonthly}::bigint * ${campaigns.priceCents}), 0)::bigint`,
        })
        .from(campaigns)
        .where(and(eq(campaigns.status, 'live'), sql`${campaigns.maxMonthly} > 0`));
      // Revenue (less approved returns), leads received and the payouts less chargebacks, from the rollup.
      const month = await statsRepo.totals(db, { from: monthStart, to: monthEnd });
      // Internal sources cost their ad spend (DESIGN.md §5): this month's days of it.
      const adSpend = await statsRepo.adSpend(db, { from: monthStart, to: monthEnd }, exchangeZone());
      const gaps = await db
        .select({
          zip: unmatchedPings.zip,
          service: unmatchedPings.service,
          count: sql<number>`sum(${unmatchedPings.n})::int`,
        })
        .from(unmatchedPings)
        .where(
          and(
            gte(unmatchedPings.day, dayInZone(exchangeZone(), monthStart)),
            lt(unmatchedPings.day, dayInZone(exchangeZone(), monthEnd)),
          ),
        )
        .groupBy(unmatchedPings.zip, unmatchedPings.service)
        .orderBy(sql`sum(${unmatchedPings.n}) desc`, unmatchedPings.zip)
        .limit(20);
      return {
        totalQuota: Number(quota?.totalQuota ?? 0),
        totalQuotaValue: centsToDollars(Number(quota?.totalQuotaValueCents ?? 0)),
        // Admin spec §3: the lead queue is "leads received of quota" (docs/decisions.md, issue 27 item 22).
        totalLeads: month.received,
        leadRevenue: centsToDollars(month.revenueCents),
        leadCost: centsToDollars(month.costCents + adSpend),
        topUnmatchedPings: gaps.map((g) => ({ _id: { zip: g.zip, service: g.service }, count: g.count })),
      };
    },

    /** This month's revenue, cost and profit per New York day, up to today (the dashboard's chart). */
    async daily(): Promise<DailyFigures[]> {
      const days = await statsRepo.byDay(db, leadDateSpan('mtd', clock.now()), exchangeZone());
      return days.map((d) => ({
        day: d.day,
        revenue: centsToDollars(d.revenueCents),
        cost: centsToDollars(d.costCents),
        profit: centsToDollars(d.revenueCents - d.costCents),
      }));
    },

    /**
     * The buyer home's Stats: the month's figures as the dashboard counts them (New York month, by the
     * clock) and the last 30 days per day, for the signed-in buyer only: any other id is not found.
     */
    async buyer(viewer: Viewer, buyerId: string): Promise<BuyerStats> {
      const own = viewer.role === 'buyer' && viewer.roleId === buyerId;
      if (!own || !(await buyers.findRow(buyerId))) throw AppError.notFound('Buyer');
      const { monthStart, monthEnd } = thisMonth();
      const [month, last30] = await Promise.all([
        statsRepo.buyerByDay(db, { from: monthStart, to: monthEnd }, buyerId, exchangeZone()),
        statsRepo.buyerByDay(db, leadDateSpan('last30d', clock.now()), buyerId, exchangeZone()),
      ]);
      const sum = (key: 'sales' | 'returns' | 'spendCents') => month.reduce((total, d) => total + d[key], 0);
      return {
        month: { leads: sum('sales'), spend: centsToDollars(sum('spendCents')), returns: sum('returns') },
        days: last30.map((d) => ({ day: d.day, leads: d.sales, spend: centsToDollars(d.spendCents) })),
      };
    },

    async sources(query: ReportQuery): Promise<SourceReportRow[]> {
      return (await statsRepo.bySource(db, spanOf(query), exchangeZone())).map(sourceRow);
    },

    async buyers(query: ReportQuery): Promise<BuyerReportRow[]> {
      return (await statsRepo.byBuyer(db, spanOf(query))).map(buyerRow);
    },

    /** A report as CSV: `sources_{date}.csv` or `buyers_{date}.csv`, the table's columns. */
    async csv(report: 'sources' | 'buyers', query: ReportQuery): Promise<{ fileName: string; body: string }> {
      const body =
        report === 'sources'
          ? toCsv(SOURCE_CSV, await this.sources(query))
          : toCsv(BUYER_CSV, await this.buyers(query));
      return { fileName: `${report}_${dayInZone(exchangeZone(), clock.now())}.csv`, body };
    },
  };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const perLead = (cents: number, count: number): number | null =>
  count > 0 ? centsToDollars(Math.round(cents / count)) : null;

/** What both reports say of a row's sales, from its cents. */
function figuresOf(
  f: { id: string; name: string; grossCents: number; returns: number; revenueCents: number; costCents: number },
  sold: number,
  sales: number,
): ReportFigures {
  return {
    _id: f.id,
    name: f.name,
    average_price: perLead(f.grossCents, sold),
    returns: f.returns,
    return_rate: ratio(f.returns, sales),
    revenue: centsToDollars(f.revenueCents),
    cost: centsToDollars(f.costCents),
    profit: centsToDollars(f.revenueCents - f.costCents),
  };
}

const sourceRow = (f: SourceFigures): SourceReportRow => ({
  ...figuresOf(f, f.sold, f.sales),
  pings: f.pings,
  leads: f.leads,
  ping_to_post: ratio(f.posts, f.pings),
  sold: f.sold,
});

const buyerRow = (f: BuyerFigures): BuyerReportRow => ({ ...figuresOf(f, f.leads, f.leads), leads: f.leads });

const percent = (value: number | null) => (value === null ? '' : (value * 100).toFixed(1));
const money = (dollars: number | null) => (dollars === null ? '' : formatMoney(dollarsToCents(dollars)));

type CsvColumn<T> = [string, (r: T) => string | number];

/** The columns both reports end with. */
const FIGURES_CSV: CsvColumn<ReportFigures>[] = [
  ['Average price', (r) => money(r.average_price)],
  ['Returns', (r) => r.returns],
  ['Return rate %', (r) => percent(r.return_rate)],
  ['Revenue', (r) => money(r.revenue)],
  ['Cost', (r) => money(r.cost)],
  ['Profit', (r) => money(r.profit)],
];

/** The reports' CSV columns, in the tables' order (the screen shows the same). */
const SOURCE_CSV: CsvColumn<SourceReportRow>[] = [
  ['Source', (r) => csvText(r.name)],
  ['Pings', (r) => r.pings],
  ['Leads', (r) => r.leads],
  ['Ping to post %', (r) => percent(r.ping_to_post)],
  ['Sold', (r) => r.sold],
  ...FIGURES_CSV,
];
const BUYER_CSV: CsvColumn<BuyerReportRow>[] = [
  ['Buyer', (r) => csvText(r.name)],
  ['Leads', (r) => r.leads],
  ...FIGURES_CSV,
];

function toCsv<T>(columns: CsvColumn<T>[], rows: T[]): string {
  return stringify([columns.map(([title]) => title), ...rows.map((r) => columns.map(([, value]) => value(r)))]);
}

export type StatsService = ReturnType<typeof createStatsService>;
