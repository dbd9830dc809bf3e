import type { Readable } from 'node:stream';
import {
  type OptOut,
  type OptOutCreate,
  SUPPRESSION_LIMITS,
  type SuppressionImportResult,
  type SuppressionKind,
  type SuppressionList,
  type SuppressionListCreate,
  type SuppressionListUpdate,
  type SuppressionSource,
} from '@leadex/domain';
import { parse } from 'csv-parse';
import type { Db } from '../../db/client';
import { normalizeSha256Hex } from '../../distribution/normalize';
import type { SuppressionCheck, SuppressionVerdict } from '../../distribution/ports';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { buyerScopeOf, maySeeBuyer, type Viewer } from '../../lib/scope';
import { type ContactHasher, contactHasherFor, dropHashOf, maskContact, normaliseContact } from './suppression.hash';
import { type OptOutRow, type SuppressionHit, type SuppressionListRow, suppressionRepo } from './suppression.repo';

/** Hashes written to the database in one statement while a CSV streams in. */
const IMPORT_BATCH = 5_000;
/** How many invalid lines an import answers (the count covers them all). */
const INVALID_LINES_SHOWN = 20;
/** The ping's ZIP lists in memory are read again after this long (another process may have changed them). */
const ZIP_CACHE_TTL_MS = 30_000;

const KIND_WORDS: Record<SuppressionKind, string> = { phone: 'a phone number', email: 'an email', zip: 'a ZIP' };

/** Where an entry goes: the exchange (every buyer) or one buyer. */
export type SuppressionScope = 'global' | string;

/** Someone telling a buyer that a consumer revoked consent (the buyer's notify channels, see deps.ts). */
export interface OptOutNotifier {
  tell(
    buyerId: string,
    notice: {
      optOutId: string;
      kind: 'phone' | 'email';
      contact: string;
      method: string;
      revokedAt: Date;
      leadIds: string[];
    },
  ): Promise<void>;
}

export interface SuppressionServiceDeps {
  db: Db;
  clock: Clock;
  secret: string;
  /** Tells the buyers that bought a consumer of its opt-out; left out, nobody is told (tests of lists alone). */
  notifier?: OptOutNotifier;
  /** A buyer's name, to check a buyer exists when the admin makes a list for it. */
  buyerExists(id: string): Promise<boolean>;
  onError?: (error: unknown) => void;
}

const METHOD_WORDS: Record<string, string> = {
  text_stop: 'a texted STOP',
  call: 'a phone call',
  email: 'an email',
  web_form: 'a web form',
  other: 'other means',
};

/** The message a buyer gets of a consumer's opt-out: what to stop, since when, which of its leads. */
export function optOutNotice(n: Parameters<OptOutNotifier['tell']>[1]) {
  const revoked = n.revokedAt.toISOString();
  const text = [
    `A consumer you bought revoked consent to be contacted: ${n.kind} ${n.contact}, by ${METHOD_WORDS[n.method] ?? n.method}, on ${revoked}.`,
    'Stop calling, texting and emailing this consumer: revocation must be honoured within 10 business days (FCC, April 2025).',
    'The contact is on the exchange-wide suppression list: no buyer will be sold it again.',
    `Your leads with this contact: ${n.leadIds.join(', ')}.`,
  ].join('\n');
  return {
    event: 'consent.revoked',
    subject: `Opt-out: stop contacting ${n.contact}`,
    text,
    data: {
      opt_out_id: n.optOutId,
      [n.kind]: n.contact,
      method: n.method,
      revoked_at: revoked,
      lead_ids: n.leadIds,
    },
  };
}

export function toSuppressionList(row: SuppressionListRow): SuppressionList {
  return {
    _id: row.id,
    name: row.name,
    kind: row.kind as SuppressionKind,
    purpose: row.purpose as SuppressionList['purpose'],
    buyer: row.buyerId,
    buyer_name: row.buyerName ?? null,
    system: row.system,
    entries: row.entryCount,
    created: row.createdAt.toISOString(),
    updated: row.updatedAt.toISOString(),
  };
}

function toOptOut(row: OptOutRow): OptOut {
  return {
    _id: row.id,
    kind: row.kind as 'phone' | 'email',
    contact: row.masked,
    method: row.method as OptOut['method'],
    revoked_at: row.revokedAt.toISOString(),
    recorded: row.createdAt.toISOString(),
    recorded_by: row.recordedByBuyerId ?? 'admin',
    note: row.note,
    notified_buyers: row.notifiedBuyerIds.length,
    retain_until: row.retainUntil.toISOString(),
  };
}

const addYears = (date: Date, years: number): Date => {
  const d = new Date(date);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d;
};

/**
 * Suppression lists and opt-outs (issue 34 items 1 and 2). Entries are keyed hashes
 * (suppression.hash.ts); `check` is the sale's port (distribution/ports.ts): one indexed query at a
 * post, and the ZIP lists from memory at a ping.
 */
export function createSuppressionService({
  db,
  clock,
  secret,
  notifier,
  buyerExists,
  onError,
}: SuppressionServiceDeps) {
  const hasher: ContactHasher = contactHasherFor(secret);

  // The ZIP lists' entries by hash, for the ping (which is answered from memory).
  let zips: Map<string, SuppressionHit[]> | null = null;
  let zipsReadAt = 0;
  let zipsLoading: Promise<void> | null = null;
  function reloadZips(): Promise<void> {
    zipsLoading ??= suppressionRepo
      .zipEntries(db)
      .then((rows) => {
        const next = new Map<string, SuppressionHit[]>();
        for (const row of rows) next.set(row.hash, [...(next.get(row.hash) ?? []), row]);
        zips = next;
        zipsReadAt = clock.now().getTime();
      })
      .catch((error) => onError?.(error))
      .finally(() => {
        zipsLoading = null;
      });
    return zipsLoading;
  }

  /** A list the viewer may see (a buyer: its own only, else 404). */
  async function visibleList(viewer: Viewer, id: string): Promise<SuppressionListRow> {
    const row = await suppressionRepo.list(db, id);
    // A buyer sees its own lists only: the exchange's and another buyer's answer 404.
    if (!row || (row.buyerId === null ? viewer.role !== 'admin' : !maySeeBuyer(viewer, row.buyerId)))
      throw AppError.notFound('Suppression list');
    return row;
  }

  /** A list the viewer may change: its own (a buyer), any (the admin); the exchange's own lists take no hand edits. */
  async function editableList(viewer: Viewer, id: string): Promise<SuppressionListRow> {
    const row = await visibleList(viewer, id);
    if (row.buyerId === null && viewer.role !== 'admin') throw AppError.notFound('Suppression list');
    return row;
  }

  async function afterChange(kind: string): Promise<void> {
    if (kind === 'zip') await reloadZips();
  }

  function verdictOf(hits: readonly SuppressionHit[]): SuppressionVerdict {
    let global: SuppressionVerdict['global'] = null;
    const buyers = new Map<string, string>();
    for (const hit of hits) {
      if (hit.buyerId === null) global ??= { listId: hit.listId, listName: hit.listName, kind: hit.kind };
      else if (!buyers.has(hit.buyerId)) buyers.set(hit.buyerId, hit.listName);
    }
    return { global, buyers };
  }

  /** The scope's own list of a kind (the opt-outs and erasures), made on first use. */
  async function systemList(scope: SuppressionScope, kind: SuppressionKind): Promise<SuppressionListRow> {
    const buyerId = scope === 'global' ? null : scope;
    const found = await suppressionRepo.systemList(db, buyerId, kind);
    if (found) return found;
    const now = clock.now();
    const id = newId('spl');
    await suppressionRepo
      .insertList(db, {
        id,
        buyerId,
        name: `Opt-outs and erasures (${kind})`,
        kind,
        purpose: 'opt_outs',
        system: true,
        createdAt: now,
        updatedAt: now,
      })
      .catch(() => {});
    const made = await suppressionRepo.systemList(db, buyerId, kind);
    if (!made) throw new Error('suppression: the system list could not be made');
    return made;
  }

  /** The engine's port: which lists hold a lead's contact. */
  const check: SuppressionCheck = {
    contact(contact) {
      return check.lookup(check.hashes(contact));
    },
    hashes({ phone, email, zip }) {
      const hashes: string[] = [];
      for (const [kind, value] of [
        ['phone', phone],
        ['email', email],
        ['zip', zip],
      ] as const) {
        const hash = value ? hasher.of(kind, value) : null;
        if (hash !== null) hashes.push(hash);
      }
      // California's deletion requests (issue 35 item 3), kept as their SHA-256 under the same key: in
      // the same query, no other round trip.
      for (const [kind, raw] of [
        ['phone', phone],
        ['email', email],
      ] as const) {
        const drop = raw ? dropHashOf(kind, raw) : null;
        if (drop) hashes.push(hasher.hash(kind, `sha256:${drop}`));
      }
      return hashes;
    },
    async lookup(hashes) {
      return verdictOf(await suppressionRepo.hits(db, hashes));
    },
    pingContact({ phone_hash, email_hash }) {
      const hashes: string[] = [];
      const phone = phone_hash ? normalizeSha256Hex(phone_hash) : null;
      const email = email_hash ? normalizeSha256Hex(email_hash) : null;
      if (phone) hashes.push(hasher.ofSha256('phone', phone));
      if (email) hashes.push(hasher.ofSha256('email', email));
      if (hashes.length === 0) return null;
      return suppressionRepo.hits(db, hashes).then(verdictOf);
    },
    zip(zip) {
      if (zips === null || clock.now().getTime() - zipsReadAt > ZIP_CACHE_TTL_MS) void reloadZips();
      if (zips === null || zips.size === 0) return null;
      const hash = hasher.of('zip', zip);
      const hits = hash ? zips.get(hash) : undefined;
      return hits ? verdictOf(hits) : null;
    },
  };

  return {
    check,
    /** Reads the ZIP lists into memory (at start, so the first ping sees them). */
    warm: reloadZips,

    /**
     * Puts a value on a scope's own list of its kind (the exchange's opt-outs and erasures, or a
     * buyer's): for other modules (erasure, issue 35). Answers false when the value is not of the kind.
     */
    async add(input: {
      scope: SuppressionScope;
      kind: SuppressionKind;
      value: string;
      reason?: string | null;
      source: SuppressionSource;
    }): Promise<boolean> {
      const hash = hasher.of(input.kind, input.value);
      if (hash === null) return false;
      const list = await systemList(input.scope, input.kind);
      await suppressionRepo.addEntries(db, list.id, [hash], {
        source: input.source,
        reason: input.reason ?? null,
        at: clock.now(),
      });
      await afterChange(input.kind);
      return true;
    },

    /**
     * Puts California deletion requests (SHA-256 hex of the DROP-normalised phone or email, issue 35
     * item 3) on the exchange's own list of the kind: a lead with that contact is refused before
     * pricing. Answers how many were new.
     */
    async addDeletionHashes(kind: 'phone' | 'email', hexes: readonly string[]): Promise<number> {
      if (hexes.length === 0) return 0;
      const list = await systemList('global', kind);
      return suppressionRepo.addEntries(
        db,
        list.id,
        hexes.map((hex) => hasher.hash(kind, `sha256:${hex}`)),
        { source: 'deletion_list', reason: 'California deletion request (DROP)', at: clock.now() },
      );
    },

    /** Whether a value is on any list of the scope ('global': the exchange's; a buyer id: that buyer's or the exchange's). */
    async isSuppressed(input: { scope: SuppressionScope; kind: SuppressionKind; value: string }): Promise<boolean> {
      const hash = hasher.of(input.kind, input.value);
      if (hash === null) return false;
      const hits = await suppressionRepo.hits(db, [hash]);
      return hits.some((h) => h.buyerId === null || (input.scope !== 'global' && h.buyerId === input.scope));
    },

    async lists(viewer: Viewer): Promise<SuppressionList[]> {
      return (await suppressionRepo.lists(db, buyerScopeOf(viewer))).map(toSuppressionList);
    },

    async get(viewer: Viewer, id: string): Promise<SuppressionList> {
      return toSuppressionList(await visibleList(viewer, id));
    },

    async create(viewer: Viewer, input: SuppressionListCreate): Promise<SuppressionList> {
      let buyerId: string | null;
      if (viewer.role === 'admin') {
        buyerId = input.buyer ?? null;
        if (buyerId !== null && !(await buyerExists(buyerId))) throw AppError.field('buyer', 'Buyer not found');
      } else {
        // A buyer's list is its own, whatever the body says.
        buyerId = buyerScopeOf(viewer) ?? null;
        if (!buyerId) throw new AppError('forbidden', 'Only a buyer can keep suppression lists');
      }
      const now = clock.now();
      const id = newId('spl');
      await suppressionRepo.insertList(db, {
        id,
        buyerId,
        name: input.name,
        kind: input.kind,
        purpose: input.purpose,
        createdAt: now,
        updatedAt: now,
      });
      return toSuppressionList((await suppressionRepo.list(db, id)) as SuppressionListRow);
    },

    async update(viewer: Viewer, id: string, input: SuppressionListUpdate): Promise<SuppressionList> {
      const row = await editableList(viewer, id);
      if (row.system) throw new AppError('conflict', 'The opt-out list is kept by the exchange and cannot be changed');
      await suppressionRepo.updateList(db, id, { ...input, updatedAt: clock.now() });
      return toSuppressionList((await suppressionRepo.list(db, id)) as SuppressionListRow);
    },

    async remove(viewer: Viewer, id: string): Promise<void> {
      const row = await editableList(viewer, id);
      if (row.system) throw new AppError('conflict', 'The opt-out list is kept by the exchange and cannot be deleted');
      await suppressionRepo.deleteList(db, id);
      await afterChange(row.kind);
    },

    /** Adds values by hand or by API: each checked, the invalid named by their position. */
    async addEntries(
      viewer: Viewer,
      id: string,
      input: { values: string[]; reason?: string },
      source: 'manual' | 'api',
    ): Promise<SuppressionImportResult> {
      const row = await editableList(viewer, id);
      if (row.system) throw new AppError('conflict', 'The opt-out list takes entries from opt-outs only');
      const kind = row.kind as SuppressionKind;
      const hashes = new Set<string>();
      const invalid: { line: number; value: string }[] = [];
      input.values.forEach((value, i) => {
        const hash = hasher.of(kind, value);
        if (hash === null) invalid.push({ line: i + 1, value: value.slice(0, 60) });
        else hashes.add(hash);
      });
      if (hashes.size === 0)
        throw AppError.field('values', `None of the values is ${KIND_WORDS[kind]}: ${invalid[0]?.value ?? ''}`);
      const added = await suppressionRepo.addEntries(db, id, [...hashes], {
        source,
        reason: input.reason ?? null,
        at: clock.now(),
      });
      await afterChange(kind);
      const after = (await suppressionRepo.list(db, id)) as SuppressionListRow;
      return {
        read: input.values.length,
        added,
        already: hashes.size - added,
        invalid: invalid.length,
        invalid_lines: invalid.slice(0, INVALID_LINES_SHOWN),
        entries: after.entryCount,
      };
    },

    /**
     * Adds a CSV's values as it streams in (a million rows in bounded memory): the column named like
     * the list's kind (or `value`), else the first; batches of 5,000 hashes, each its own statement,
     * so an upload cut off keeps what was read (uploading it again adds the rest).
     */
    async importCsv(
      viewer: Viewer,
      id: string,
      body: Readable,
      onProgress?: (read: number) => void,
    ): Promise<SuppressionImportResult> {
      const row = await editableList(viewer, id);
      if (row.system) throw new AppError('conflict', 'The opt-out list takes entries from opt-outs only');
      const kind = row.kind as SuppressionKind;
      const parser = body.pipe(
        parse({ relax_column_count: true, skip_empty_lines: true, trim: true, bom: true, max_record_size: 4096 }),
      );
      let line = 0;
      let column = 0;
      let read = 0;
      let added = 0;
      let valid = 0;
      let invalid = 0;
      const invalidLines: { line: number; value: string }[] = [];
      let batch = new Set<string>();
      const at = clock.now();
      const flush = async () => {
        if (batch.size === 0) return;
        const hashes = [...batch];
        batch = new Set();
        added += await suppressionRepo.addEntries(db, id, hashes, { source: 'csv', reason: null, at });
      };
      try {
        for await (const record of parser as AsyncIterable<string[]>) {
          line++;
          if (line === 1) {
            // A header: a first line whose cells are none of them a value of the kind.
            const named = record.findIndex((cell) => [kind, 'value'].includes(cell.toLowerCase()));
            if (named >= 0 || record.every((cell) => normaliseContact(kind, cell) === null && /[a-z]/i.test(cell))) {
              column = Math.max(named, 0);
              continue;
            }
          }
          read++;
          const value = record[column] ?? '';
          const normalised = normaliseContact(kind, value);
          if (normalised === null) {
            invalid++;
            if (invalidLines.length < INVALID_LINES_SHOWN) invalidLines.push({ line, value: value.slice(0, 60) });
            continue;
          }
          valid++;
          batch.add(hasher.hash(kind, normalised));
          if (batch.size >= IMPORT_BATCH) {
            await flush();
            onProgress?.(read);
          }
        }
        await flush();
      } catch (error) {
        if (error instanceof AppError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw AppError.field('file', `The CSV could not be read at line ${line + 1}: ${message}`);
      } finally {
        await afterChange(kind);
      }
      if (read === 0) throw AppError.field('file', 'The CSV has no values');
      const after = (await suppressionRepo.list(db, id)) as SuppressionListRow;
      return {
        read,
        added,
        already: valid - added,
        invalid,
        invalid_lines: invalidLines,
        entries: after.entryCount,
      };
    },

    async removeEntry(viewer: Viewer, id: string, value: string): Promise<void> {
      const row = await editableList(viewer, id);
      if (row.system) throw new AppError('conflict', 'An opt-out is kept for 10 years and cannot be removed');
      const hash = hasher.of(row.kind as SuppressionKind, value);
      if (hash === null) throw AppError.field('value', `This is not ${KIND_WORDS[row.kind as SuppressionKind]}`);
      if (!(await suppressionRepo.removeEntry(db, id, hash, clock.now()))) throw AppError.notFound('Entry');
      await afterChange(row.kind);
    },

    /** Whether a value is on a list (the only way to read a list: its entries are hashes). */
    async lookup(viewer: Viewer, id: string, value: string): Promise<{ value: string; listed: boolean }> {
      const row = await visibleList(viewer, id);
      const kind = row.kind as SuppressionKind;
      const normalised = normaliseContact(kind, value);
      if (normalised === null) throw AppError.field('value', `This is not ${KIND_WORDS[kind]}`);
      return { value: normalised, listed: await suppressionRepo.hasEntry(db, id, hasher.hash(kind, normalised)) };
    },

    /**
     * Records a consumer's revocation of consent (issue 34 item 2): on the exchange's opt-out list
     * at once (every buyer), kept 10 years, and every other buyer that bought the consumer in the
     * last 5 years told through its notify channels.
     */
    async recordOptOut(viewer: Viewer, input: OptOutCreate): Promise<OptOut[]> {
      const recordedBy = viewer.role === 'admin' ? null : (buyerScopeOf(viewer) ?? null);
      if (viewer.role !== 'admin' && !recordedBy)
        throw new AppError('forbidden', 'Only a buyer or the admin records opt-outs');
      const contacts: { kind: 'phone' | 'email'; value: string }[] = [];
      for (const kind of ['phone', 'email'] as const) {
        const raw = input[kind];
        if (!raw) continue;
        const value = normaliseContact(kind, raw);
        if (value === null) throw AppError.field(kind, `This is not ${KIND_WORDS[kind]}`);
        contacts.push({ kind, value });
      }
      const now = clock.now();
      const revokedAt = input.revoked_at ? new Date(input.revoked_at) : now;
      if (revokedAt.getTime() > now.getTime() + 5 * 60_000)
        throw AppError.field('revoked_at', 'revoked_at cannot be in the future');
      const records: OptOutRow[] = [];
      const byBuyer = new Map<string, { kind: 'phone' | 'email'; contact: string; leadIds: string[] }>();
      for (const { kind, value } of contacts) {
        const hash = hasher.hash(kind, value);
        const list = await systemList('global', kind);
        await suppressionRepo.addEntries(db, list.id, [hash], { source: 'opt_out', reason: input.method, at: now });
        const bought = await suppressionRepo.buyersOfContact(
          db,
          { [kind]: value },
          addYears(now, -SUPPRESSION_LIMITS.notifyYears),
        );
        const told = bought.filter((b) => b.buyerId !== recordedBy);
        for (const b of told)
          if (!byBuyer.has(b.buyerId)) byBuyer.set(b.buyerId, { kind, contact: value, leadIds: b.leadIds });
        const row: OptOutRow = {
          id: newId('opt'),
          kind,
          hash,
          masked: maskContact(kind, value),
          method: input.method,
          revokedAt,
          note: input.note ?? null,
          recordedByBuyerId: recordedBy,
          recordedByUserId: viewer.userId,
          notifiedBuyerIds: told.map((b) => b.buyerId),
          retainUntil: addYears(now, SUPPRESSION_LIMITS.retainYears),
          createdAt: now,
        };
        await suppressionRepo.insertOptOut(db, row);
        records.push(row);
      }
      if (notifier)
        await Promise.all(
          [...byBuyer].map(([buyerId, c]) =>
            notifier
              .tell(buyerId, {
                optOutId: records[0]?.id ?? '',
                kind: c.kind,
                contact: c.contact,
                method: input.method,
                revokedAt,
                leadIds: c.leadIds,
              })
              .catch((error) => onError?.(error)),
          ),
        );
      return records.map(toOptOut);
    },

    /** The opt-outs recorded: every one (admin), or a buyer's own. */
    async optOuts(viewer: Viewer): Promise<OptOut[]> {
      return (await suppressionRepo.optOuts(db, buyerScopeOf(viewer), 200)).map(toOptOut);
    },
  };
}

export type SuppressionService = ReturnType<typeof createSuppressionService>;
