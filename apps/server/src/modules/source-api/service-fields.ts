import {
  type FieldValue,
  isBlankFieldValue,
  type LeadFieldFlag,
  readFieldValue,
  type ServiceField,
  sentText,
} from '@leadex/domain';
import type { EngineSnapshot } from '../../distribution/index';
import { AppError } from '../../lib/errors';

/**
 * The services' own fields at the source API (issue 33 item 2). Before the body is validated, the names
 * any service's field takes (its key, its aliases, any case) and a `fields` object are taken out of the
 * body (`captureServiceFields`); once the service is known, `readServiceFields` reads that service's
 * fields with the lenient rules. Everything comes from the engine's snapshot: no query per request.
 */

/** The values sent under a service field's name (or in a `fields` object), by the name as sent. */
export type SentServiceFields = Record<string, unknown>;

/** Where a ping, a post or a direct lead reads fields: a ping only its ping-stage fields that are not personal. */
export type FieldStage = 'ping' | 'post' | 'lead';

const FIELDS_OBJECT = 'fields';
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** A snapshot's lower-cased names of every live service field (keys and aliases), built once per snapshot. */
const namesBySnapshot = new WeakMap<EngineSnapshot, ReadonlySet<string>>();

function fieldNamesOf(snapshot: EngineSnapshot): ReadonlySet<string> {
  let names = namesBySnapshot.get(snapshot);
  if (!names) {
    const set = new Set<string>();
    for (const fields of snapshot.serviceFields.values())
      for (const f of fields) {
        if (f.removed) continue;
        set.add(f.key.toLowerCase());
        for (const alias of f.aliases) set.add(alias.toLowerCase());
      }
    names = set;
    namesBySnapshot.set(snapshot, names);
  }
  return names;
}

/** A body's service fields (undefined: none readable) and the rest of it, as two objects. */
export interface CapturedServiceFields {
  sent: SentServiceFields | undefined;
  rest: Record<string, unknown>;
}

/**
 * Takes the service fields out of a body before the field mapper and the schema see it: the names
 * some service's field takes, and a `fields` object's entries. Undefined when there are none (the
 * usual body costs a set lookup per field). The rest comes back as a new object rather than the body
 * with keys deleted: an object that loses keys turns into a slow dictionary for every later reader.
 */
export function captureServiceFields(
  snapshot: EngineSnapshot,
  body: Record<string, unknown>,
): CapturedServiceFields | undefined {
  const names = fieldNamesOf(snapshot);
  const nested = body[FIELDS_OBJECT];
  if (nested === undefined && (names.size === 0 || !Object.keys(body).some((name) => names.has(name.toLowerCase()))))
    return undefined;
  let sent: SentServiceFields | undefined;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    for (const [name, value] of Object.entries(nested)) {
      if (UNSAFE_NAMES.has(name)) continue;
      sent ??= {};
      sent[name] = value;
    }
  }
  const rest: Record<string, unknown> = {};
  for (const name of Object.keys(body)) {
    if (name === FIELDS_OBJECT) continue;
    if (names.has(name.toLowerCase())) {
      sent ??= {};
      // A top-level field wins over the same name in `fields`.
      sent[name] = body[name];
    } else if (UNSAFE_NAMES.has(name))
      Object.defineProperty(rest, name, { value: body[name], enumerable: true, writable: true, configurable: true });
    else rest[name] = body[name];
  }
  return { sent, rest };
}

/** What the source API read of a service's fields. */
export interface ReadServiceFields {
  /** `{ [key]: value }`, money in integer cents. */
  fields: Record<string, FieldValue>;
  /** Optional fields that could not be read: kept raw in the lead's field flags. */
  flags: LeadFieldFlag[];
  /** One sentence per field renamed, ignored or kept in metadata. */
  warnings: string[];
  /** What the lead keeps in `metadata` (names that are none of this service's fields, at a post or lead). */
  metadata: Record<string, unknown>;
}

const MAX_FLAGGED_VALUE = 200;
const NOTHING: ReadServiceFields = Object.freeze({
  fields: {},
  flags: [],
  warnings: [],
  metadata: {},
}) as ReadServiceFields;

/** Whether a field is read at a stage: a ping reads only the ping-stage fields that are not personal. */
const readAt = (f: ServiceField, stage: FieldStage) => stage !== 'ping' || (f.stage === 'ping' && !f.personal);

/** A service's live fields and the names each is sent under, with their ranks (the key 0, aliases from 2). */
interface FieldNames {
  live: readonly ServiceField[];
  byName: ReadonlyMap<string, { field: ServiceField; rank: number }>;
  /** The live fields' keys as they are, when every one is in lower case (as the admin's form makes them), else null. */
  keys: ReadonlySet<string> | null;
}

/** Each snapshot's field definitions (one array a service) with their names, built once, not for every request. */
const namesByDefinitions = new WeakMap<readonly ServiceField[], FieldNames>();

function namesOf(definitions: readonly ServiceField[]): FieldNames {
  let names = namesByDefinitions.get(definitions);
  if (!names) {
    const live = definitions.filter((f) => !f.removed);
    const byName = new Map<string, { field: ServiceField; rank: number }>();
    for (const f of live) {
      byName.set(f.key, { field: f, rank: 0 });
      f.aliases.forEach((alias, i) => {
        const lower = alias.toLowerCase();
        if (!byName.has(lower)) byName.set(lower, { field: f, rank: 2 + i });
      });
    }
    const keys = live.every((f) => f.key === f.key.toLowerCase()) ? new Set(live.map((f) => f.key)) : null;
    names = { live, byName, keys };
    namesByDefinitions.set(definitions, names);
  }
  return names;
}

/**
 * Reads the fields of `service` from what was sent (names matched case-insensitively to each field's key,
 * then its aliases in their order; the key wins). A required field missing, or sent but unreadable, is a
 * 400 naming it; an optional one that cannot be read is left out of the lead and flagged with its raw
 * value. At a ping, a post-stage or personal field is ignored with a warning (a personal field never
 * travels in a ping). At a post, `carried` holds the ping's fields (they win: the buyers were priced on them).
 */
export function readServiceFields(
  definitions: readonly ServiceField[],
  sent: SentServiceFields | undefined,
  stage: FieldStage,
  carried: Record<string, FieldValue> = {},
): ReadServiceFields {
  const { live, byName, keys } = namesOf(definitions);
  if (live.length === 0 && !sent) return NOTHING;
  const out: ReadServiceFields = { fields: { ...carried }, flags: [], warnings: [], metadata: {} };
  let errors: Record<string, string> | undefined;
  // The usual request sends each field once under its own key: each field's name is then its key, with
  // no other claim and nothing unknown, and the names need no sorting out (the same reading, less work).
  let claims: Map<string, { name: string; rank: number }[]> | undefined;
  if (sent && !(keys && everyNameIn(sent, keys))) {
    // Each field's names as sent, best first.
    claims = new Map();
    for (const name of Object.keys(sent)) {
      const lower = name.toLowerCase();
      const hit = byName.get(lower);
      if (!hit) {
        if (stage === 'ping') out.warnings.push(`Field \`${name}\` is not a field of this service: it was ignored.`);
        else {
          out.metadata[name] = sent[name];
          out.warnings.push(`Field \`${name}\` is not a field of this service: it was kept in metadata.`);
        }
        continue;
      }
      const rank = hit.rank === 0 && name !== hit.field.key ? 1 : hit.rank;
      const list = claims.get(hit.field.key) ?? [];
      list.push({ name, rank });
      claims.set(hit.field.key, list);
    }
  }

  for (const f of live) {
    let winner: { name: string } | undefined;
    if (claims) {
      const names = (claims.get(f.key) ?? []).sort((a, b) => a.rank - b.rank);
      winner = names.find((n) => !isBlankFieldValue(sent?.[n.name]));
      for (const loser of names)
        if (loser !== winner && winner && !isBlankFieldValue(sent?.[loser.name]))
          out.warnings.push(`Field \`${loser.name}\` was ignored: \`${winner.name}\` was sent too.`);
    } else if (sent && Object.hasOwn(sent, f.key) && !isBlankFieldValue(sent[f.key])) winner = { name: f.key };
    if (!readAt(f, stage)) {
      if (winner)
        out.warnings.push(
          f.personal
            ? `Field \`${winner.name}\` is personal: it never travels in a ping and was ignored; send it with the post.`
            : `Field \`${winner.name}\` is read at the post, not the ping: it was ignored; send it with the post.`,
        );
      continue;
    }
    if (f.key in carried) {
      if (winner) {
        const again = readFieldValue(f, sent?.[winner.name]);
        if (!('value' in again) || again.value !== carried[f.key])
          out.warnings.push(`Field \`${winner.name}\` was sent at the ping: the ping’s value is kept.`);
      }
      continue;
    }
    if (!winner) {
      if (f.required) {
        errors ??= {};
        errors[f.key] = `${f.key} is required (${f.label})`;
      }
      continue;
    }
    const raw = sent?.[winner.name];
    if (winner.name !== f.key) out.warnings.push(`Field \`${winner.name}\` was read as \`${f.key}\`.`);
    const read = readFieldValue(f, raw);
    if ('value' in read) out.fields[f.key] = read.value;
    else if (f.required) {
      errors ??= {};
      errors[f.key] = `${f.key} (${f.label}) could not be read: ${read.flag}`;
    } else
      out.flags.push({
        field: f.key,
        value: sentText(raw).slice(0, MAX_FLAGGED_VALUE),
        problem: `Could not be read: ${read.flag}. The lead was kept without it.`,
      });
  }
  if (errors) throw new AppError('bad_request', Object.values(errors)[0] as string, { errors });
  return out;
}

/** Whether every name sent is one of these keys. */
function everyNameIn(sent: SentServiceFields, keys: ReadonlySet<string>): boolean {
  for (const name in sent) if (Object.hasOwn(sent, name) && !keys.has(name)) return false;
  return true;
}
