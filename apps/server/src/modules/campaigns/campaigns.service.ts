import { randomInt } from 'node:crypto';
import {
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignCreate,
  type CampaignListItem,
  type CampaignListQuery,
  type CampaignSourceFilterInput,
  type CampaignStatusValue,
  type CampaignUpdate,
  campaignRuleIssues,
  checkFieldFilters,
  type FieldFilter,
  type FieldIssue,
  type FilterableField,
  type FilterField,
  fieldFilterAnswer,
  hasNotifyMethod,
  type LocationType,
  optionValue,
  type Page,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import type { NotifyConfig } from '../../db/schema';
import type { Engine } from '../../distribution/engine';
import type { Clock } from '../../lib/clock';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { centsOrNull, centsToDollars, dollarsToCents } from '../../lib/money';
import { pageWindow } from '../../lib/paging';
import { buyerScopeOf, maySeeBuyer } from '../../lib/scope';
import type { Viewer } from '../../plugins/auth';
import { toCampaign, toCampaignListItem } from './campaigns.dto';
import { type CampaignInsert, type CampaignRow, campaignsRepo } from './campaigns.repo';

/** The fields of services, by service (the services module's definitions, removed ones included). */
export type ServiceFieldsOf = (
  /** Undefined: every service's. */
  services?: readonly string[],
) => Promise<ReadonlyMap<string, readonly FilterableField[]>>;

export interface CampaignsServiceDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
  /** The services' field definitions, which the field filters name (issue 33). */
  serviceFields: ServiceFieldsOf;
}

/** The live fields of these services by key, each with the services that have it (the first service's definition wins). */
export function filterableFields(
  byService: ReadonlyMap<string, readonly FilterableField[]>,
): Map<string, FilterableField & { services: string[] }> {
  const out = new Map<string, FilterableField & { services: string[] }>();
  for (const [service, fields] of byService)
    for (const f of fields) {
      if (f.removed) continue;
      const known = out.get(f.key);
      if (known) known.services.push(service);
      else out.set(f.key, { ...f, services: [service] });
    }
  return out;
}

const BRANDED_ID_TAKEN = 'Branded Id is already in use';
const ADMIN_ONLY_FILTERS = 'Source restrictions are set by the admin';
/** Readable, unambiguous characters for generated Branded Ids (no 0/O, 1/I/L). */
const ID_CHARS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A 400 naming every field at fault; the message is the first one (what a toast shows). */
function fieldErrors(issues: FieldIssue[]): AppError {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path] ??= issue.message;
  return new AppError('bad_request', issues[0]?.message ?? 'Invalid campaign', { errors });
}

/** The location columns: only the chosen location type's values are kept (admin §7). */
function locationColumns(
  location: LocationType,
  values: { state: string[]; zips: string[]; zipset: string | null },
): Pick<CampaignInsert, 'location' | 'states' | 'zips' | 'zipsetId'> {
  return {
    location,
    states: location === 'state' ? values.state : [],
    zips: location === 'zip' ? values.zips : [],
    zipsetId: location === 'zipset' ? values.zipset : null,
  };
}

export function createCampaignsService({ db, clock, engine, serviceFields }: CampaignsServiceDeps) {
  /**
   * The rules checked against the fields of the campaign's services, as stored (money in cents); a
   * 400 naming each rule at fault (issue 33).
   */
  async function storedFilters(
    services: readonly string[],
    rules: readonly FieldFilter[],
    all: ReadonlyMap<string, readonly FilterableField[]>,
  ) {
    if (rules.length === 0) return [];
    const wanted = new Map(services.flatMap((s) => (all.has(s) ? [[s, all.get(s) ?? []] as const] : [])));
    const { issues, stored } = checkFieldFilters(rules, filterableFields(wanted));
    if (issues.length) throw fieldErrors(issues);
    return stored;
  }

  /** A campaign the viewer may see, or 404: another buyer's campaign is answered as if it did not exist. */
  async function findVisible(viewer: Viewer, id: string, tx: Db | Tx = db): Promise<CampaignRow> {
    const row = await campaignsRepo.findById(tx, id);
    if (!row || !maySeeBuyer(viewer, row.buyerId)) throw AppError.notFound('Campaign');
    return row;
  }

  async function present(viewer: Viewer, row: CampaignRow): Promise<Campaign> {
    const [history, filters, spent, fields] = await Promise.all([
      campaignsRepo.historyOf(db, row.id),
      // Source restrictions are the admin's: a buyer never sees them (portals §3).
      viewer.role === 'admin' ? campaignsRepo.filtersOf(db, row.id) : undefined,
      // Spent in the budget periods, in the campaign's zone as the engine counts them (issue 33).
      engine.budgetSpent(row.id, row.buyerId, row.time?.zone ?? null),
      row.fieldFilters.length > 0 ? serviceFields(row.services) : new Map(),
    ]);
    const labels = filterableFields(fields);
    return {
      ...toCampaign(row, history, filters),
      field_filters: row.fieldFilters.map((rule) => fieldFilterAnswer(rule, labels.get(rule.field)?.label)),
      spent: {
        daily: centsToDollars(spent.daily),
        weekly: centsToDollars(spent.weekly),
        monthly: centsToDollars(spent.monthly),
      },
    };
  }

  async function get(viewer: Viewer, id: string): Promise<Campaign> {
    return present(viewer, await findVisible(viewer, id));
  }

  /** Services, zipset and sources must exist: a 400 naming each unknown one. */
  async function checkReferences(
    tx: Tx,
    buyerId: string,
    input: { services?: string[]; zipset?: string | null; source_filter?: CampaignSourceFilterInput[] },
  ) {
    const issues: FieldIssue[] = [];
    if (input.services?.length) {
      const known = await campaignsRepo.serviceNames(tx);
      const unknown = input.services.filter((s) => !known.has(s));
      if (unknown.length) issues.push({ path: 'services', message: `Unknown service: ${unknown.join(', ')}` });
    }
    // Another buyer's region does not exist for this campaign.
    if (input.zipset && !(await campaignsRepo.zipsetUsable(tx, input.zipset, buyerId)))
      issues.push({ path: 'zipset', message: 'Zipset not found' });
    if (input.source_filter?.length) {
      const existing = await campaignsRepo.existingSources(tx, [...new Set(input.source_filter.map((f) => f.source))]);
      input.source_filter.forEach((f, i) => {
        if (!existing.has(f.source)) issues.push({ path: `source_filter.${i}.source`, message: 'Source not found' });
      });
    }
    if (issues.length) throw fieldErrors(issues);
  }

  /** A readable Branded Id from the buyer's name: `SUMMIT-7KQ4`. */
  async function generateFixedId(tx: Tx, buyerName: string): Promise<string> {
    const prefix =
      buyerName
        .toUpperCase()
        .split(/[^A-Z0-9]+/)
        .find((word) => word.length > 0)
        ?.slice(0, 12) ?? 'CMP';
    for (let attempt = 0; attempt < 20; attempt++) {
      const length = attempt < 10 ? 4 : 8;
      const suffix = Array.from({ length }, () => ID_CHARS[randomInt(ID_CHARS.length)]).join('');
      const candidate = `${prefix}-${suffix}`;
      if (!(await campaignsRepo.fixedIdTaken(tx, candidate))) return candidate;
    }
    throw new AppError('conflict', 'Could not make a free Branded Id; please enter one');
  }

  function toFilterRows(campaignId: string, filters: CampaignSourceFilterInput[]) {
    return filters.map((f) => ({
      id: newId('csf'),
      campaignId,
      sourceId: f.source,
      channel: f.channel ?? null,
      priceCents: centsOrNull(f.price),
      sharedPriceCents: centsOrNull(f.shared_price),
      pct: f.pct,
    }));
  }

  /**
   * Runs a write the engine depends on (engine.change: one transaction, every process reloads); a
   * Branded Id taken by a concurrent write answers like one taken before.
   */
  async function write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await engine.change('campaigns', work);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('fixed_id', BRANDED_ID_TAKEN);
      throw error;
    }
  }

  return {
    async list(viewer: Viewer, query: CampaignListQuery): Promise<Page<CampaignListItem>> {
      const { rows, total } = await campaignsRepo.list(db, {
        buyerId: buyerScopeOf(viewer) ?? query.buyer,
        buyerName: query.buyer_name,
        service: query.service,
        ...pageWindow(query),
      });
      return { data: rows.map(toCampaignListItem), total };
    },

    /** The fields a campaign of these services may filter on (the Field Filters' picker; admin and buyer). */
    async filterFields(services: readonly string[]): Promise<FilterField[]> {
      const known = await campaignsRepo.serviceNames(db);
      const fields = filterableFields(await serviceFields(services.filter((s) => known.has(s))));
      return [...fields.values()].map((f) => ({
        key: f.key,
        label: f.label,
        type: f.type,
        ...(f.options?.length ? { options: f.options.map(optionValue) } : {}),
        stage: f.stage ?? 'post',
        personal: f.personal ?? false,
        services: f.services,
      }));
    },

    /** The services the viewer's campaigns buy (the list's service filter offers these). */
    servicesInUse(viewer: Viewer): Promise<string[]> {
      return campaignsRepo.servicesInUse(db, buyerScopeOf(viewer));
    },

    get,

    /**
     * Creates a draft campaign. The admin names the buyer; a buyer creates for itself. Without a
     * Branded Id one is made; without Lead Delivery the buyer's default delivery is copied.
     */
    async create(viewer: Viewer, input: CampaignCreate): Promise<Campaign> {
      const isAdmin = viewer.role === 'admin';
      if (!isAdmin && input.source_filter !== undefined) throw AppError.field('source_filter', ADMIN_ONLY_FILTERS);
      let buyerId: string;
      if (isAdmin) {
        if (!input.buyer) throw AppError.field('buyer', 'Buyer is required');
        buyerId = input.buyer;
      } else {
        // A buyer creates only for itself; naming another buyer is naming something it cannot see.
        if (!viewer.roleId || (input.buyer !== undefined && input.buyer !== viewer.roleId))
          throw AppError.notFound('Buyer');
        buyerId = viewer.roleId;
      }
      const now = clock.now();
      const id = newId('cmp');
      // Read before the transaction: PGlite has one connection, which the transaction holds.
      const fields = input.field_filters.length > 0 ? await serviceFields(input.services) : new Map();
      await write(async (tx) => {
        const buyerNotify = await campaignsRepo.buyerNotify(tx, buyerId);
        const buyerName = await campaignsRepo.buyerName(tx, buyerId);
        if (!buyerNotify || buyerName === null) throw AppError.field('buyer', 'Buyer not found');
        const notify: NotifyConfig = input.notify ?? buyerNotify;
        if (!hasNotifyMethod(notify)) throw AppError.field('notify', CAMPAIGN_MESSAGES.notifyRequired);
        await checkReferences(tx, buyerId, {
          services: input.services,
          zipset: input.location === 'zipset' ? input.zipset : null,
          source_filter: input.source_filter,
        });
        if (input.fixed_id && (await campaignsRepo.fixedIdTaken(tx, input.fixed_id)))
          throw AppError.field('fixed_id', BRANDED_ID_TAKEN);
        const fieldFilters = await storedFilters(input.services, input.field_filters, fields);
        const shared = input.exclusive !== 1;
        await campaignsRepo.insert(tx, {
          id,
          buyerId,
          name: input.name,
          fixedId: input.fixed_id ?? (await generateFixedId(tx, buyerName)),
          priceCents: dollarsToCents(input.price),
          shared,
          sharedPriceCents: centsOrNull(input.shared_price),
          services: input.services,
          ...locationColumns(input.location, {
            state: input.state,
            zips: input.zips,
            zipset: input.zipset ?? null,
          }),
          maxHourly: input.max.hourly ?? null,
          maxDaily: input.max.daily ?? null,
          maxWeekly: input.max.weekly ?? null,
          maxMonthly: input.max.monthly ?? null,
          budgetDailyCents: centsOrNull(input.budget.daily),
          budgetWeeklyCents: centsOrNull(input.budget.weekly),
          budgetMonthlyCents: centsOrNull(input.budget.monthly),
          fieldFilters,
          notify,
          time: input.time ?? null,
          requireNamedConsent: input.require_named_consent,
          refuseOutsideCallingWindow: input.refuse_outside_calling_window,
          // A new campaign starts as draft (DESIGN.md §8).
          status: 'draft',
          notes: input.notes ?? null,
          tags: input.tags,
          createdAt: now,
          updatedAt: now,
        });
        if (input.source_filter?.length)
          await campaignsRepo.replaceFilters(tx, id, toFilterRows(id, input.source_filter));
        await campaignsRepo.addStatusEvent(tx, {
          id: newId('cse'),
          campaignId: id,
          status: 'draft',
          reason: 'Created',
          actor: viewer.userId,
          at: now,
        });
      });
      return get(viewer, id);
    },

    /**
     * Applies the changed fields. A status change is recorded in the history (who, when, why); the
     * cross-field rules are checked on the campaign as it will be, for the parts that changed.
     */
    async update(viewer: Viewer, id: string, changes: CampaignUpdate): Promise<Campaign> {
      const isAdmin = viewer.role === 'admin';
      // Every service's fields, read before the transaction (PGlite has one connection, which it holds).
      const fields =
        changes.field_filters !== undefined || changes.services !== undefined ? await serviceFields() : new Map();
      await write(async (tx) => {
        const current = await findVisible(viewer, id, tx);
        if (!isAdmin && changes.source_filter !== undefined) throw AppError.field('source_filter', ADMIN_ONLY_FILTERS);
        const now = clock.now();

        const location = changes.location ?? (current.location as LocationType);
        const sameType = location === current.location;
        const place = locationColumns(location, {
          state: changes.state ?? (sameType ? current.states : []),
          zips: changes.zips ?? (sameType ? current.zips : []),
          zipset: changes.zipset ?? (sameType ? current.zipsetId : null),
        });
        const exclusive = changes.exclusive ?? (current.shared ? 0 : 1);
        const sharedPrice =
          changes.shared_price !== undefined
            ? changes.shared_price
            : current.sharedPriceCents === null
              ? null
              : current.sharedPriceCents / 100;
        const touched = (...keys: (keyof CampaignUpdate)[]) => keys.some((key) => key in changes);
        const issues = campaignRuleIssues({
          location,
          state: place.states ?? [],
          zips: place.zips ?? [],
          zipset: place.zipsetId ?? null,
          notify: changes.notify,
          exclusive,
          shared_price: sharedPrice,
          status: changes.status?.value ?? (current.status as CampaignStatusValue),
          services: changes.services ?? current.services,
        }).filter((issue) =>
          issue.path === 'notify'
            ? true
            : issue.path === 'shared_price'
              ? touched('exclusive', 'shared_price')
              : issue.path === 'services'
                ? touched('status', 'services')
                : touched('location', 'state', 'zips', 'zipset'),
        );
        if (issues.length) throw fieldErrors(issues);
        await checkReferences(tx, current.buyerId, {
          services: changes.services,
          zipset: touched('location', 'zipset') ? place.zipsetId : null,
          source_filter: changes.source_filter,
        });
        if (changes.fixed_id !== undefined && (await campaignsRepo.fixedIdTaken(tx, changes.fixed_id, id)))
          throw AppError.field('fixed_id', BRANDED_ID_TAKEN);

        const columns: Partial<CampaignInsert> = { updatedAt: now };
        if (changes.name !== undefined) columns.name = changes.name;
        if (changes.price !== undefined) columns.priceCents = dollarsToCents(changes.price);
        if (changes.exclusive !== undefined) columns.shared = changes.exclusive !== 1;
        if (changes.shared_price !== undefined) columns.sharedPriceCents = centsOrNull(changes.shared_price);
        if (changes.fixed_id !== undefined) columns.fixedId = changes.fixed_id;
        if (changes.services !== undefined) columns.services = changes.services;
        if (changes.tags !== undefined) columns.tags = changes.tags;
        // A key sent empty (or null) clears the notes.
        if ('notes' in changes) columns.notes = changes.notes ?? null;
        if (touched('location', 'state', 'zips', 'zipset')) Object.assign(columns, place);
        if (changes.max !== undefined) {
          columns.maxHourly = changes.max.hourly ?? null;
          columns.maxDaily = changes.max.daily ?? null;
          columns.maxWeekly = changes.max.weekly ?? null;
          columns.maxMonthly = changes.max.monthly ?? null;
        }
        if (changes.budget !== undefined) {
          columns.budgetDailyCents = centsOrNull(changes.budget.daily);
          columns.budgetWeeklyCents = centsOrNull(changes.budget.weekly);
          columns.budgetMonthlyCents = centsOrNull(changes.budget.monthly);
        }
        // New rules, or new services under the stored ones: the rules must name the services' fields.
        if (changes.field_filters !== undefined || changes.services !== undefined) {
          const rules = changes.field_filters ?? current.fieldFilters.map((rule) => fieldFilterAnswer(rule));
          columns.fieldFilters = await storedFilters(changes.services ?? current.services, rules, fields);
        }
        if (changes.notify !== undefined) columns.notify = changes.notify;
        if (changes.time !== undefined) columns.time = changes.time;
        if (changes.require_named_consent !== undefined) columns.requireNamedConsent = changes.require_named_consent;
        if (changes.refuse_outside_calling_window !== undefined)
          columns.refuseOutsideCallingWindow = changes.refuse_outside_calling_window;
        const status = changes.status;
        if (status && status.value !== current.status) {
          columns.status = status.value;
          await campaignsRepo.addStatusEvent(tx, {
            id: newId('cse'),
            campaignId: id,
            status: status.value,
            reason: status.reason ?? null,
            actor: viewer.userId,
            at: now,
          });
        }
        await campaignsRepo.update(tx, id, columns);
        if (changes.source_filter !== undefined)
          await campaignsRepo.replaceFilters(tx, id, toFilterRows(id, changes.source_filter));
      });
      return get(viewer, id);
    },
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
