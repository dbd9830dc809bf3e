import {
  type CompiledFieldFilter,
  compileFieldFilter,
  type FilterableField,
  type StoredFieldFilter,
} from '@leadex/domain';

/** A rule whose field changed type since it was saved: it excludes until the buyer edits it. */
function changedType(rule: StoredFieldFilter, field: FilterableField): CompiledFieldFilter {
  return {
    field: rule.field,
    text: `${field.label}: the field is now ${field.type}, not ${rule.type}; edit this filter`,
    postOnly: false,
    test: () => false,
    show: (v) => (v === undefined ? 'none' : String(v)),
  };
}

/** The distinct rules of one service in a snapshot: each has its slot, numbered from 0. */
export interface RuleSlots {
  size: number;
}

/**
 * A compiled rule shared by every campaign of the snapshot that has the same rule on the same service
 * (buyers copy their filters from campaign to campaign): `slot` numbers it among its service's
 * distinct rules, so a lead's verdict on it is computed once, whatever number of campaigns ask.
 */
export interface SharedFieldFilter extends CompiledFieldFilter {
  slot: number;
  slots: RuleSlots;
}

/** One snapshot's compiled rules by service and rule: built while the snapshot loads, then read only. */
export class SharedRules {
  private readonly bySignature = new Map<string, SharedFieldFilter>();
  private readonly slotsByService = new Map<string, RuleSlots>();

  of(service: string, rule: StoredFieldFilter, field: FilterableField): SharedFieldFilter {
    // Two rules are the same when their stored form is (the field definition is the service's own).
    const signature = `${service}\u0000${JSON.stringify(rule)}`;
    let shared = this.bySignature.get(signature);
    if (!shared) {
      let slots = this.slotsByService.get(service);
      if (!slots) {
        slots = { size: 0 };
        this.slotsByService.set(service, slots);
      }
      const compiled = field.type === rule.type ? compileFieldFilter(rule, field) : changedType(rule, field);
      shared = { ...compiled, slot: slots.size++, slots };
      this.bySignature.set(signature, shared);
    }
    return shared;
  }
}

/**
 * A campaign's rules compiled once per snapshot, by service (issue 33): a rule applies to the leads
 * of the services that define its field; a field a service has removed no longer filters its leads.
 * Undefined when the campaign has no rule that applies anywhere. Pass one `shared` for a whole
 * snapshot so that campaigns with the same rule share it.
 */
export function compileCampaignFilters(
  stored: readonly StoredFieldFilter[] | null | undefined,
  services: Iterable<string>,
  fieldsOf: (service: string) => ReadonlyMap<string, FilterableField> | undefined,
  shared: SharedRules = new SharedRules(),
): Map<string, SharedFieldFilter[]> | undefined {
  if (!stored || stored.length === 0) return undefined;
  let out: Map<string, SharedFieldFilter[]> | undefined;
  for (const service of services) {
    const fields = fieldsOf(service);
    if (!fields) continue;
    const rules: SharedFieldFilter[] = [];
    for (const rule of stored) {
      const field = fields.get(rule.field);
      if (!field || field.removed) continue;
      rules.push(shared.of(service, rule, field));
    }
    if (rules.length === 0) continue;
    out ??= new Map();
    out.set(service, rules);
  }
  return out;
}

/**
 * The fields a set of rules leaves to the post when a ping carries none of its post-only fields (a
 * ping never does: it reads only ping-stage fields that are not personal): built once per snapshot's
 * rules, so a ping allocates nothing per candidate campaign for them. Null when no rule waits.
 */
const deferredByRules = new WeakMap<readonly CompiledFieldFilter[], readonly string[] | null>();

export function deferredAtPing(rules: readonly CompiledFieldFilter[]): readonly string[] | null {
  let deferred = deferredByRules.get(rules);
  if (deferred === undefined) {
    const fields = [...new Set(rules.filter((r) => r.postOnly).map((r) => r.field))];
    deferred = fields.length > 0 ? Object.freeze(fields) : null;
    deferredByRules.set(rules, deferred);
  }
  return deferred;
}

/**
 * A lead's verdicts on its service's shared rules by slot (0: not tested yet, 1: holds, 2: fails),
 * kept with the lead's fields: the same rule on many campaigns is tested once a lead. Tied to the
 * snapshot's slots too, since a sale may run again on a newer snapshot with the same fields.
 */
const verdictsByFields = new WeakMap<object, { slots: RuleSlots; verdicts: Int8Array }>();

export function verdictsOf(fields: object, slots: RuleSlots): Int8Array {
  let memo = verdictsByFields.get(fields);
  if (!memo || memo.slots !== slots) {
    memo = { slots, verdicts: new Int8Array(slots.size) };
    verdictsByFields.set(fields, memo);
  }
  return memo.verdicts;
}
