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

/**
 * A campaign's rules compiled once per snapshot, by service (issue 33): a rule applies to the leads
 * of the services that define its field; a field a service has removed no longer filters its leads.
 * Undefined when the campaign has no rule that applies anywhere.
 */
export function compileCampaignFilters(
  stored: readonly StoredFieldFilter[] | null | undefined,
  services: Iterable<string>,
  fieldsOf: (service: string) => ReadonlyMap<string, FilterableField> | undefined,
): Map<string, CompiledFieldFilter[]> | undefined {
  if (!stored || stored.length === 0) return undefined;
  let out: Map<string, CompiledFieldFilter[]> | undefined;
  for (const service of services) {
    const fields = fieldsOf(service);
    if (!fields) continue;
    const rules: CompiledFieldFilter[] = [];
    for (const rule of stored) {
      const field = fields.get(rule.field);
      if (!field || field.removed) continue;
      rules.push(field.type === rule.type ? compileFieldFilter(rule, field) : changedType(rule, field));
    }
    if (rules.length === 0) continue;
    out ??= new Map();
    out.set(service, rules);
  }
  return out;
}
