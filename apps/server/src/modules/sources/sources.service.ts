import {
  APPROVAL_NEEDS_PAYOUT,
  type ApiKeyCreate,
  needsPayout,
  type Page,
  SOURCE_DETAIL_LEADS,
  type Source,
  type SourceApiKey,
  type SourceApprove,
  type SourceCreate,
  type SourceListItem,
  type SourceListQuery,
  type SourceUpdate,
  type SourceUser,
  type SourceUserInput,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import { createApiKeyVault } from '../../lib/api-keys';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { centsOrNull } from '../../lib/money';
import { pageWindow } from '../../lib/paging';
import type { Viewer } from '../../plugins/auth';
import type { UsersService } from '../users/users.service';
import { toApiKey, toSource, toSourceLead, toSourceListItem, toSourceUser } from './sources.dto';
import { type ApiKeyRow, type SourceInsert, type SourceRow, sourcesRepo } from './sources.repo';

export interface SourcesServiceDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  engine: Engine;
  /** LEADEX_SECRET: API keys are stored encrypted with a key derived from it. */
  secret: string;
}

/** Sources (lead suppliers): records, channels, API keys and users (admin spec §2-§7). */
export function createSourcesService({ db, clock, users, engine, secret }: SourcesServiceDeps) {
  const vault = createApiKeyVault(secret);

  /** A source the viewer may see, or 404: another source's record is answered as if it did not exist. */
  async function findVisible(viewer: Viewer, id: string): Promise<SourceRow> {
    const visible = viewer.role === 'admin' || (viewer.role === 'source' && viewer.roleId === id);
    const row = visible ? await sourcesRepo.findById(db, id) : null;
    if (!row) throw AppError.notFound('Source');
    return row;
  }

  async function mustExist(db: Db | Tx, id: string): Promise<SourceRow> {
    const row = await sourcesRepo.findById(db, id);
    if (!row) throw AppError.notFound('Source');
    return row;
  }

  const showKey = (row: ApiKeyRow): SourceApiKey => toApiKey(row, vault.reveal(row.keyEncrypted), clock.now());

  async function detail(row: SourceRow, forAdmin: boolean, include: string[] = []): Promise<Source> {
    const [channels, keys, sourceUsers, leads] = await Promise.all([
      sourcesRepo.channelsOf(db, [row.id]),
      sourcesRepo.apiKeysOf(db, row.id),
      include.includes('users') ? users.listOf('source', row.id) : undefined,
      include.includes('leads') ? sourcesRepo.latestLeads(db, row.id, SOURCE_DETAIL_LEADS) : undefined,
    ]);
    return toSource(row, {
      channels,
      apikeys: keys.map(showKey),
      users: sourceUsers,
      leads: leads?.map((lead) => toSourceLead(lead, forAdmin)),
      forAdmin,
    });
  }

  /**
   * A default service and the campaign map name services the exchange buys (issue 32 item 3): a typo
   * would otherwise refuse every lead the source sends without `service`.
   */
  function checkServices(input: { default_service?: string | null; campaign_services?: { service: string }[] }) {
    const known = engine.snapshot().services;
    const unknown = (service: string) => `'${service}' is not one of the exchange's services`;
    if (input.default_service && !known.has(input.default_service))
      throw AppError.field('default_service', `Default service ${unknown(input.default_service)}`);
    input.campaign_services?.forEach((row, i) => {
      if (!known.has(row.service))
        throw AppError.field(`campaign_services.${i}.service`, `Service ${unknown(row.service)}`);
    });
  }

  return {
    /** The source's record as stored, or null. */
    findRow: (id: string): Promise<SourceRow | null> => sourcesRepo.findById(db, id),

    /**
     * A self-signed-up source (the sign-up's, in its transaction with the source's user) and its first
     * API key, "API Key 1", which posts no direct leads.
     */
    async insertSelfSignedUp(tx: Tx, row: SourceInsert, at: Date): Promise<void> {
      await sourcesRepo.insert(tx, row);
      const issued = vault.issue();
      await sourcesRepo.insertApiKey(tx, {
        id: newId('key'),
        sourceId: row.id,
        name: 'API Key 1',
        prefix: issued.prefix,
        keyHash: issued.keyHash,
        keyEncrypted: issued.keyEncrypted,
        canPostLead: false,
        expiresAt: null,
        createdAt: at,
      });
    },

    async list(query: SourceListQuery): Promise<Page<SourceListItem>> {
      const { rows, total } = await sourcesRepo.list(db, { name: query.name, ...pageWindow(query) });
      const channels = await sourcesRepo.channelsOf(
        db,
        rows.map((r) => r.id),
      );
      return {
        data: rows.map((row) =>
          toSourceListItem(
            row,
            channels.filter((c) => c.sourceId === row.id),
          ),
        ),
        total,
      };
    },

    async get(viewer: Viewer, id: string, include: string[] = []): Promise<Source> {
      const row = await findVisible(viewer, id);
      return detail(row, viewer.role === 'admin', include);
    },

    /** Creates the source and its channels; an admin's source is approved to sell at once. */
    async create(input: SourceCreate): Promise<Source> {
      checkServices(input);
      const now = clock.now();
      const id = newId('src');
      const row = await engine.change('sources', async (tx) => {
        const { channels, ...fields } = input;
        const inserted = await sourcesRepo.insert(tx, {
          ...toColumns(fields),
          id,
          name: input.name,
          email: input.email.toLowerCase(),
          phone: input.phone,
          approvedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        await sourcesRepo.replaceChannels(tx, id, toChannelRows(channels));
        return inserted;
      });
      return detail(row, true, ['users']);
    },

    /** Applies the changed fields; `channels`, when sent, replaces the source's channels. */
    async update(id: string, changes: SourceUpdate): Promise<Source> {
      checkServices(changes);
      const row = await engine.change('sources', async (tx) => {
        const current = await mustExist(tx, id);
        const { channels, ...fields } = changes;
        if (channels) await sourcesRepo.replaceChannels(tx, id, toChannelRows(channels));
        return (await sourcesRepo.update(tx, id, { ...toColumns(fields), updatedAt: clock.now() })) ?? current;
      });
      return detail(row, true);
    },

    /** Puts the source on hold: the public API refuses it from the next call. Holding again keeps the first hold. */
    async hold(id: string, reason?: string): Promise<Source> {
      const row = await engine.change('sources', async (tx) => {
        const current = await mustExist(tx, id);
        if (current.heldAt) return current;
        return (await sourcesRepo.update(tx, id, {
          heldAt: clock.now(),
          holdReason: reason ?? null,
          updatedAt: clock.now(),
        })) as SourceRow;
      });
      return detail(row, true);
    },

    async unhold(id: string): Promise<Source> {
      const row = await engine.change('sources', async (tx) => {
        await mustExist(tx, id);
        return (await sourcesRepo.update(tx, id, {
          heldAt: null,
          holdReason: null,
          updatedAt: clock.now(),
        })) as SourceRow;
      });
      return detail(row, true);
    },

    /**
     * Lets a self-signed-up source sell real leads (it could only test until now), at a payout: the
     * lead cost sent with the approval, or the one it has (its own or a channel's); without one the
     * approval is refused, as the source would sell at $0 (issue 27). Approving an approved source
     * keeps its first approval (a lead cost sent with it is still set).
     */
    async approve(id: string, input: SourceApprove = {}): Promise<Source> {
      const row = await engine.change('sources', async (tx) => {
        let current = await mustExist(tx, id);
        const now = clock.now();
        if (input.max_cost !== undefined && input.max_cost !== null) {
          current = (await sourcesRepo.update(tx, id, {
            maxCostCents: centsOrNull(input.max_cost),
            updatedAt: now,
          })) as SourceRow;
        }
        if (current.approvedAt) return current;
        if (needsPayout(current, await sourcesRepo.channelsOf(tx, [id]))) {
          throw AppError.field('max_cost', APPROVAL_NEEDS_PAYOUT);
        }
        return (await sourcesRepo.update(tx, id, { approvedAt: now, updatedAt: now })) as SourceRow;
      });
      return detail(row, true, ['users']);
    },

    /** Issues a new API key (usable at once); answers it with the key to show and copy. */
    async newApiKey(id: string, input: ApiKeyCreate = {}): Promise<SourceApiKey> {
      checkServices(input);
      const now = clock.now();
      if (input.expiration !== undefined && input.expiration * 1000 <= now.getTime()) {
        throw AppError.field('expiration', 'Expiration must be in the future');
      }
      const row = await engine.change('sources', async (tx) => {
        const source = await mustExist(tx, id);
        const taken = new Set((await sourcesRepo.apiKeysOf(tx, id)).map((k) => k.name.toLowerCase()));
        // Keys are held by name, so a source's key names are unique.
        if (input.name && taken.has(input.name.toLowerCase())) {
          throw AppError.field('name', 'An API key with this name already exists');
        }
        let name = input.name;
        for (let n = taken.size + 1; !name; n++) if (!taken.has(`api key ${n}`)) name = `API Key ${n}`;
        const issued = vault.issue();
        return sourcesRepo.insertApiKey(tx, {
          id: newId('key'),
          sourceId: source.id,
          name,
          prefix: issued.prefix,
          keyHash: issued.keyHash,
          keyEncrypted: issued.keyEncrypted,
          canPostLead: input.canPostLead ?? source.canPostLead,
          defaultService: input.default_service ?? null,
          expiresAt: input.expiration === undefined ? null : new Date(input.expiration * 1000),
          createdAt: now,
        });
      });
      return showKey(row);
    },

    /** Puts the named key on hold; a key already on hold cannot be held again (admin §4). */
    async holdApiKey(id: string, name: string): Promise<SourceApiKey> {
      const row = await engine.change('sources', async (tx) => {
        await mustExist(tx, id);
        const key = (await sourcesRepo.apiKeysOf(tx, id)).find((k) => k.name.toLowerCase() === name.toLowerCase());
        if (!key) throw AppError.notFound('API key');
        if (key.heldAt) throw AppError.field('name', 'This API key is already on hold');
        return (await sourcesRepo.updateApiKey(tx, key.id, { heldAt: clock.now() })) as ApiKeyRow;
      });
      return showKey(row);
    },

    /**
     * Adds a user to the source; it signs in after following its welcome email, onto the welcome page.
     * A username is the demo's (the form sends none): its users sign in with one.
     */
    async addUser(id: string, input: SourceUserInput & { username?: string }): Promise<SourceUser> {
      await mustExist(db, id);
      const added = await db.transaction(async (tx) => {
        const created = await users.create(tx, { ...input, role: 'source', roleId: id });
        return (await users.showWelcome(tx, created.id)) ?? created;
      });
      return toSourceUser(added);
    },

    ...users.actionsOnUsersOf('source', toSourceUser),
  };
}

export type SourcesService = ReturnType<typeof createSourcesService>;

function toChannelRows(channels: { name: string; max_cost: number }[]) {
  return channels.map((c) => ({ id: newId('chn'), name: c.name, maxCostCents: centsOrNull(c.max_cost) }));
}

/** Maps the API's fields onto columns; fields absent from the input stay absent (changed fields only). */
function toColumns(input: Omit<SourceUpdate, 'channels'>): Partial<SourceInsert> {
  const columns: Partial<SourceInsert> = {};
  const text = ['name', 'phone', 'contactName', 'address', 'city', 'state', 'zip', 'website', 'notes'] as const;
  // A key present with no value is a cleared optional field; required ones never arrive empty.
  for (const key of text) if (key in input) (columns as Record<string, unknown>)[key] = input[key] ?? null;
  if (input.email) columns.email = input.email.toLowerCase();
  if (input.tags) columns.tags = input.tags;
  if ('tier' in input) columns.tier = input.tier ?? null;
  if (input.canPostLead !== undefined) columns.canPostLead = input.canPostLead;
  if ('max_cost' in input) columns.maxCostCents = centsOrNull(input.max_cost);
  if ('default_service' in input) columns.defaultService = input.default_service ?? null;
  if ('answer_format' in input) columns.answerFormat = input.answer_format ?? null;
  if (input.campaign_services) columns.campaignServices = input.campaign_services;
  return columns;
}
