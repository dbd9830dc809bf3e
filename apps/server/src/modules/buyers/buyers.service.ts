import {
  BUYER_DETAIL_LEADS,
  type Buyer,
  type BuyerCreate,
  type BuyerListItem,
  type BuyerListQuery,
  type BuyerPauseResult,
  type BuyerUpdate,
  type Page,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { centsOrNull, centsToDollars, dollarsToCents } from '../../lib/money';
import { pageWindow } from '../../lib/paging';
import type { UsersService } from '../users/users.service';
import { toBuyer, toBuyerCampaign, toBuyerLead, toBuyerListItem, toBuyerUser } from './buyers.dto';
import { type BuyerInsert, type BuyerRow, buyersRepo } from './buyers.repo';

export type { BuyerRow };

/** Who is asking: admins see every buyer, a buyer user only its own (DESIGN.md §8). */
export interface Viewer {
  role: string | null;
  roleId: string | null;
}

export interface BuyersServiceDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  /** Reloaded at once after a change the distribution engine depends on (pausing campaigns). */
  engine: Pick<Engine, 'change' | 'buyerSpentToday'>;
  /** The bills' part of a buyer's terms (bills/buyer-spend.ts): its prepay ledger and what it may spend. */
  billing: BillingPort;
}

/** What the buyers module asks of the bills, which own a buyer's spend (rule 7) and prepay ledger. */
export interface BillingPort {
  /** The buyer was created or its form saved, in `tx`: record a new prepay amount and set its spend afresh. */
  termsChanged(
    tx: Tx,
    buyer: { id: string; payMethod: string; thresholdCents: number; prepayCents: number },
    previousPrepayCents: number,
    at: Date,
  ): Promise<void>;
}

export function createBuyersService({ db, clock, users, engine, billing }: BuyersServiceDeps) {
  /** A buyer the viewer may see, or 404: another buyer's record is answered as if it did not exist. */
  async function findVisible(viewer: Viewer, id: string) {
    const visible = viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === id);
    const row = visible ? await buyersRepo.findById(db, id) : null;
    if (!row) throw AppError.notFound('Buyer');
    return row;
  }

  return {
    /** The buyer's record as stored (its terms, its Stripe customer), or null: for the bills, stats and messages. */
    findRow: (id: string): Promise<BuyerRow | null> => buyersRepo.findById(db, id),

    async list(query: BuyerListQuery): Promise<Page<BuyerListItem>> {
      const { rows, total } = await buyersRepo.list(db, { name: query.name, ...pageWindow(query) });
      return { data: rows.map(toBuyerListItem), total };
    },

    /** One buyer; `include` adds its users, its campaigns (`matches`) and its latest leads. */
    async get(viewer: Viewer, id: string, include: string[] = []): Promise<Buyer> {
      const row = await findVisible(viewer, id);
      const [buyerUsers, matches, leads, spentToday] = await Promise.all([
        include.includes('users') ? users.listOf('buyer', row.id) : undefined,
        include.includes('matches') ? buyersRepo.campaignsOf(db, row.id) : undefined,
        include.includes('leads') ? buyersRepo.latestLeads(db, row.id, BUYER_DETAIL_LEADS) : undefined,
        engine.buyerSpentToday(row.id),
      ]);
      return {
        ...toBuyer(row, buyerUsers),
        spent_today: centsToDollars(spentToday),
        ...(matches ? { matches: matches.map(toBuyerCampaign) } : {}),
        ...(leads ? { leads: leads.map(toBuyerLead) } : {}),
      };
    },

    /**
     * Pauses every live campaign of the buyer (admin §4) in one transaction with its status history
     * and the engine's version, then reloads this process's engine, so no further lead is sold to
     * them from the next request on (other processes follow within a second).
     */
    async pause(id: string, reason: string, actor: string): Promise<BuyerPauseResult> {
      const paused = await engine.change('campaigns', async (tx) => {
        if (!(await buyersRepo.findById(tx, id))) throw AppError.notFound('Buyer');
        const ids = await buyersRepo.pauseLiveCampaigns(tx, id, { reason, actor, at: clock.now() });
        return ids.length;
      });
      return { paused };
    },

    /** Creates the buyer and its primary user (the buyer's Username and Email) in one transaction. */
    async create(input: BuyerCreate): Promise<Buyer> {
      const now = clock.now();
      const id = newId('buy');
      return db.transaction(async (tx) => {
        const primary = await users.create(tx, {
          name: input.name,
          email: input.email,
          username: input.username,
          role: 'buyer',
          roleId: id,
        });
        const { username: _fixedAtCreation, ...fields } = input;
        const row = await buyersRepo.insert(tx, {
          ...toColumns(fields),
          id,
          username: input.username,
          name: input.name,
          email: input.email.toLowerCase(),
          phone: input.phone,
          createdAt: now,
          updatedAt: now,
        });
        await billing.termsChanged(tx, row, 0, now);
        return toBuyer(row, [primary]);
      });
    },

    /** Applies the changed fields; a new email also becomes the primary user's sign-in. */
    async update(id: string, changes: BuyerUpdate): Promise<Buyer> {
      // The daily budget is the engine's (issue 33): its change reloads every process's index.
      const write = (work: (tx: Tx) => Promise<Buyer>) =>
        changes.budget_daily !== undefined || changes.legal_names !== undefined
          ? engine.change('buyers', work)
          : db.transaction(work);
      return write(async (tx) => {
        const current = await buyersRepo.findById(tx, id);
        if (!current) throw AppError.notFound('Buyer');
        await users.changePrimaryEmail(tx, current.username, changes.email);
        const row = await buyersRepo.update(tx, id, { ...toColumns(changes), updatedAt: clock.now() });
        if (row) await billing.termsChanged(tx, row, current.prepayCents, clock.now());
        return toBuyer(row ?? current);
      });
    },

    /**
     * The buyer's legal names (PUT /api/buyer/{id}/legal-names): the admin's, or the buyer's own (another
     * buyer's answers 404). The engine reloads: named-consent campaigns read them.
     */
    async setLegalNames(viewer: Viewer, id: string, names: string[]): Promise<Buyer> {
      if (viewer.role === 'buyer' && viewer.roleId !== id) throw AppError.notFound('Buyer');
      return engine.change('buyers', async (tx) => {
        const row = await buyersRepo.update(tx, id, { legalNames: names, updatedAt: clock.now() });
        if (!row) throw AppError.notFound('Buyer');
        return toBuyer(row);
      });
    },

    /** Adds a user to the buyer; it signs in after following its welcome email. */
    async addUser(id: string, input: { name: string; email: string }) {
      if (!(await buyersRepo.findById(db, id))) throw AppError.notFound('Buyer');
      const added = await db.transaction((tx) => users.create(tx, { ...input, role: 'buyer', roleId: id }));
      return toBuyerUser(added);
    },

    ...users.actionsOnUsersOf('buyer', toBuyerUser),
  };
}

export type BuyersService = ReturnType<typeof createBuyersService>;

/** Maps the API's fields onto columns; fields absent from the input stay absent (changed fields only). */
function toColumns(input: BuyerUpdate): Partial<BuyerInsert> {
  const columns: Partial<BuyerInsert> = {};
  const text = ['name', 'email', 'phone', 'address', 'city', 'state', 'zip', 'notes'] as const;
  // A key present with no value is a cleared optional field; required ones never arrive empty.
  for (const key of text) if (key in input) (columns as Record<string, unknown>)[key] = input[key] ?? null;
  if (input.email) columns.email = input.email.toLowerCase();
  if (input.tags) columns.tags = input.tags;
  if (input.notify) columns.notify = input.notify;
  if (input.autoApproveReturns !== undefined) columns.autoApproveReturns = input.autoApproveReturns;
  if (input.showSource !== undefined) columns.showSource = input.showSource;
  if (input.budget_daily !== undefined) columns.budgetDailyCents = centsOrNull(input.budget_daily);
  if (input.legal_names !== undefined) columns.legalNames = input.legal_names;
  const bill = input.bill;
  if (bill) {
    if (bill.pay !== undefined) columns.payMethod = bill.pay;
    if (bill.prepay !== undefined) columns.prepayCents = dollarsToCents(bill.prepay);
    if (bill.period !== undefined) columns.period = bill.period;
    if (bill.grace !== undefined) columns.graceDays = bill.grace;
    if (bill.threshold !== undefined) columns.thresholdCents = dollarsToCents(bill.threshold);
  }
  return columns;
}
