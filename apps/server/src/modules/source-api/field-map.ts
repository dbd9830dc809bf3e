import { CAMPAIGN_ID_FIELDS, FIELD_ALIASES, PLATFORM_FIELDS } from './aliases';

type Fields = Record<string, unknown>;

/** What a route takes: its own fields, and whether it keeps the rest in `metadata` (post, lead) or only reads (ping). */
export interface FieldPlan {
  /** The route's own field names (its body schema's). */
  fields: ReadonlySet<string>;
  /** Every field of ours on any route, so `Phone` at a ping is known to be our `phone`, not a stranger. */
  allFields: readonly string[];
  /** Post and lead keep what they do not read in `metadata`; a ping stores nothing. */
  keepsMetadata: boolean;
  /**
   * Our fields the route reads only as a hash into another of its fields (a ping's `phone` as its
   * `phone_hash`): the value itself goes no further. `hash` answers null for a value that is not one.
   */
  hashedInto?: Readonly<Record<string, { field: string; hash: (value: string) => string | null }>>;
}

/** A platform's campaign id as sent: the field's name and its value. */
export interface CampaignId {
  name: string;
  value: string;
}

/** What mapping a body found: one sentence per renamed or ignored field, and the campaign ids sent. */
export interface FieldMapping {
  warnings: string[];
  campaignIds: CampaignId[];
}

const METADATA = 'metadata';
/** Names that would reach an object's prototype if used as a key. */
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Lower-cased alias -> our field and its priority (the table's order; 0 and 1 are our own names). */
const ALIAS_INDEX = new Map<string, { field: string; rank: number }>();
FIELD_ALIASES.forEach(({ alias, field }, i) => {
  const name = alias.toLowerCase();
  if (!ALIAS_INDEX.has(name) && name !== field) ALIAS_INDEX.set(name, { field, rank: 2 + i });
});
const CAMPAIGN_NAMES = new Set(CAMPAIGN_ID_FIELDS.map((f) => f.name.toLowerCase()));
const PLATFORM_NAMES = new Set(PLATFORM_FIELDS.map((f) => f.name.toLowerCase()));

/** `metadata.x` or `metadata[x]` (form bodies' ways of nesting): `x`, else undefined. */
function metadataKeyOf(lower: string, name: string): string | undefined {
  if (!lower.startsWith(METADATA) || name.length <= METADATA.length + 1) return undefined;
  const separator = name[METADATA.length];
  if (separator === '.') return name.slice(METADATA.length + 1);
  if (separator === '[' && name.endsWith(']')) return name.slice(METADATA.length + 1, -1);
  return undefined;
}

const textOf = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/** A value read only as its hash into `into.field` (unless that field was sent itself); answers the warning. */
function hashInto(
  body: Fields,
  name: string,
  value: unknown,
  into: { field: string; hash: (value: string) => string | null },
): string {
  if (into.field in body) return `Field \`${name}\` was ignored: \`${into.field}\` was sent too.`;
  const text = textOf(value);
  const hash = text ? into.hash(text) : null;
  if (!hash) return `Field \`${name}\` could not be read: it was ignored.`;
  body[into.field] = hash;
  return `Field \`${name}\` was read as \`${into.field}\` (its SHA-256; the value itself is not kept).`;
}

/**
 * Builds the mapper of one route (once, at start): it renames the industry's names (aliases.ts) to
 * ours in place, case-insensitively, before validation. Our own name wins over an alias; an alias
 * listed earlier wins over a later one. What the route does not read goes to `metadata` on a post or
 * lead (`metadata.x` and `metadata[x]` flattened into it) and is ignored at a ping; each renamed or
 * ignored field is a warning. A map lookup per field: nothing is built per request but the answer.
 */
export function fieldMapper(plan: FieldPlan): (body: Fields) => FieldMapping {
  // Our own names in any case: `Zip` is `zip` (rank 1: after the exact name, before any alias).
  const ownByLowerCase = new Map(plan.allFields.map((field) => [field.toLowerCase(), field]));

  return (body) => {
    const names = Object.keys(body);
    // The usual body (our own names only) costs a set lookup per field and nothing more.
    if (names.every((name) => plan.fields.has(name))) return { warnings: [], campaignIds: [] };
    const warnings: string[] = [];
    const campaignIds: CampaignId[] = [];
    // Our field -> the names sent for it, best first once sorted.
    let claims: Map<string, { name: string; rank: number }[]> | undefined;
    let kept: [string, unknown][] | undefined;
    const keep = (name: string, value: unknown) => {
      kept ??= [];
      kept.push([name, value]);
    };

    for (const name of names) {
      if (plan.fields.has(name)) continue;
      const value = body[name];
      const lower = name.toLowerCase();
      let target: { field: string; rank: number } | undefined;
      const own = ownByLowerCase.get(lower);
      if (own !== undefined) target = { field: own, rank: own === name ? 0 : 1 };
      else target = ALIAS_INDEX.get(lower);
      if (target) {
        claims ??= new Map();
        const list = claims.get(target.field) ?? [];
        list.push({ name, rank: target.rank });
        claims.set(target.field, list);
        continue;
      }
      delete body[name];
      if (CAMPAIGN_NAMES.has(lower)) {
        const text = textOf(value);
        if (text) campaignIds.push({ name, value: text });
        if (plan.keepsMetadata) keep(name, value);
      } else if (PLATFORM_NAMES.has(lower)) {
        if (plan.keepsMetadata) keep(name, value);
      } else if (UNSAFE_NAMES.has(name)) {
        warnings.push(`Field \`${name}\` was ignored: that name cannot be stored.`);
      } else if (!plan.keepsMetadata) {
        warnings.push(`Field \`${name}\` is not read at the ping: it was ignored.`);
      } else {
        const inner = metadataKeyOf(lower, name);
        keep(inner !== undefined && !UNSAFE_NAMES.has(inner) ? inner : name, value);
      }
    }

    if (claims) {
      for (const [field, names] of claims) {
        if (plan.keepsMetadata && !plan.fields.has(field) && ownByLowerCase.has(field)) {
          // A post repeating the ping's fields (LeadsPedia's resend `zip_code`, `state`): the ping's values are the lead's.
          for (const { name } of names) delete body[name];
          continue;
        }
        names.sort((a, b) => a.rank - b.rank);
        const [winner, ...losers] = names as [{ name: string; rank: number }, ...{ name: string }[]];
        const present = plan.fields.has(field) && field in body;
        const winnerName = present ? field : winner.name;
        for (const loser of present ? names : losers) {
          const value = body[loser.name];
          delete body[loser.name];
          if (plan.keepsMetadata) {
            keep(loser.name, value);
            warnings.push(`Field \`${loser.name}\` was not read: \`${winnerName}\` was sent too (kept in metadata).`);
          } else warnings.push(`Field \`${loser.name}\` was ignored: \`${winnerName}\` was sent too.`);
        }
        if (present) continue;
        const value = body[winner.name];
        delete body[winner.name];
        if (plan.fields.has(field)) {
          body[field] = value;
          warnings.push(`Field \`${winner.name}\` was read as \`${field}\`.`);
        } else if (plan.keepsMetadata) {
          keep(field, value);
          warnings.push(
            winner.name === field
              ? `Field \`${field}\` is not read here: it was kept in metadata.`
              : `Field \`${winner.name}\` was kept in metadata as \`${field}\`.`,
          );
        } else if (plan.hashedInto?.[field]) {
          warnings.push(hashInto(body, winner.name, value, plan.hashedInto[field]));
        } else warnings.push(`Field \`${winner.name}\` is not read at the ping: it was ignored.`);
      }
    }

    if (kept) {
      const current = body[METADATA];
      const metadata: Fields =
        current && typeof current === 'object' && !Array.isArray(current)
          ? (current as Fields)
          : current === undefined || current === null || current === ''
            ? {}
            : { [METADATA]: current };
      for (const [name, value] of kept) {
        if (Object.hasOwn(metadata, name))
          warnings.push(`Field \`${name}\` was ignored: metadata already has \`${name}\`.`);
        else metadata[name] = value;
      }
      body[METADATA] = metadata;
    }
    return { warnings, campaignIds };
  };
}

/** Where a lead without `service` finds one: the source's campaign map, then the key's default, then the source's. */
export interface ServiceRouting {
  /** A platform campaign id (as sent, trimmed) -> our service. */
  campaignServices: ReadonlyMap<string, string>;
  keyDefaultService: string | null;
  sourceDefaultService: string | null;
}

/**
 * Gives a body without `service` the one its campaign id maps to, else the key's or the source's default
 * (issue 32 item 3). A `service` sent is never replaced. Answers a warning when campaign ids were sent
 * that the map does not know and no service was found.
 */
export function chooseService(body: Fields, campaignIds: readonly CampaignId[], routing: ServiceRouting): string[] {
  if (textOf(body.service)) return [];
  for (const id of campaignIds) {
    const service = routing.campaignServices.get(id.value);
    if (service) {
      body.service = service;
      return [];
    }
  }
  const fallback = routing.keyDefaultService ?? routing.sourceDefaultService;
  if (fallback) {
    body.service = fallback;
    return [];
  }
  return campaignIds.map(
    (id) =>
      `Campaign id \`${id.value}\` (field \`${id.name}\`) is not in this source's campaign map: send \`service\`.`,
  );
}
