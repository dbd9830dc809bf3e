/**
 * The industry's field names the source API reads as its own (issue 32 item 1): one table, data only.
 * docs/api.md's "Field aliases" table and the /doc page are checked against it by aliases.test.ts, and
 * the LeadConduit names against `leadconduit-fields`' own list. Names match case-insensitively; a
 * field's own name in another case (boberdoo's `Zip`) is read too, with a warning like any alias.
 * Where each platform's names come from: docs/decisions.md "Field aliases (issue 32)".
 */

/** The platforms whose names the table holds, as the docs name them. */
export const PLATFORMS = ['LeadConduit', 'LeadsPedia', 'boberdoo', 'Lead Prosper', 'TrustedForm', 'Jornaya'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** One name a platform sends, and the field of ours it is read as (a name in two cases may be listed for each platform's spelling). */
export interface FieldAlias {
  /** The name as the platform documents it (matched case-insensitively). */
  alias: string;
  /** Our field (docs/api.md); a name the route does not take is kept in `metadata` under this name. */
  field: string;
  platforms: readonly Platform[];
}

/**
 * Every alias, grouped by our field. Within a field, a name listed earlier wins over a later one when
 * both are sent; our own name always wins over any alias.
 */
export const FIELD_ALIASES: readonly FieldAlias[] = [
  { alias: 'postal_code', field: 'zip', platforms: ['LeadConduit'] },
  { alias: 'zip_code', field: 'zip', platforms: ['LeadsPedia', 'Lead Prosper'] },
  { alias: 'Zip', field: 'zip', platforms: ['boberdoo'] },
  { alias: 'State', field: 'state', platforms: ['boberdoo'] },
  { alias: 'City', field: 'city', platforms: ['boberdoo'] },
  { alias: 'address_1', field: 'address', platforms: ['LeadConduit'] },
  { alias: 'Address', field: 'address', platforms: ['boberdoo'] },
  { alias: 'First_Name', field: 'first_name', platforms: ['boberdoo'] },
  { alias: 'Last_Name', field: 'last_name', platforms: ['boberdoo'] },
  { alias: 'phone_1', field: 'phone', platforms: ['LeadConduit'] },
  { alias: 'phone_home', field: 'phone', platforms: ['LeadsPedia'] },
  { alias: 'Primary_Phone', field: 'phone', platforms: ['boberdoo'] },
  { alias: 'email_address', field: 'email', platforms: ['LeadsPedia'] },
  { alias: 'Email', field: 'email', platforms: ['boberdoo'] },
  { alias: 'ip_address', field: 'ip', platforms: ['LeadConduit', 'LeadsPedia', 'Lead Prosper'] },
  { alias: 'IP_Address', field: 'ip', platforms: ['boberdoo'] },
  { alias: 'User_Agent', field: 'user_agent', platforms: ['boberdoo'] },
  { alias: 'home_owner', field: 'homeowner', platforms: ['Lead Prosper'] },
  { alias: 'Homeowner', field: 'homeowner', platforms: ['boberdoo'] },
  { alias: 'TCPA_Consent', field: 'tcpa_consent', platforms: ['boberdoo'] },
  { alias: 'tcpa_text', field: 'tcpa_language', platforms: ['LeadsPedia'] },
  { alias: 'TCPA_Language', field: 'tcpa_language', platforms: ['boberdoo'] },
  { alias: 'trustedform_cert_url', field: 'trusted_form', platforms: ['LeadConduit', 'Lead Prosper'] },
  { alias: 'xxTrustedFormCertUrl', field: 'trusted_form', platforms: ['TrustedForm'] },
  { alias: 'Trusted_Form_URL', field: 'trusted_form', platforms: ['boberdoo'] },
  { alias: 'xxTrustedFormToken', field: 'trusted_form', platforms: ['TrustedForm'] },
  { alias: 'xxTrustedFormPingUrl', field: 'trusted_form_ping_url', platforms: ['TrustedForm'] },
  { alias: 'trustedform_ping_url', field: 'trusted_form_ping_url', platforms: ['LeadConduit'] },
  { alias: 'leadid_token', field: 'jornaya', platforms: ['Jornaya', 'LeadConduit'] },
  { alias: 'universal_leadid', field: 'jornaya', platforms: ['Jornaya'] },
  { alias: 'leadid_id', field: 'jornaya', platforms: ['LeadConduit'] },
  { alias: 'jornaya_leadid', field: 'jornaya', platforms: ['Lead Prosper'] },
  { alias: 'universal_lead_id', field: 'jornaya', platforms: ['LeadsPedia'] },
  { alias: 'lp_s1', field: 'sub_id', platforms: ['LeadsPedia'] },
  { alias: 'lp_subid1', field: 'sub_id', platforms: ['Lead Prosper'] },
  { alias: 'Sub_ID', field: 'sub_id', platforms: ['boberdoo'] },
  { alias: 'Pub_ID', field: 'pub_id', platforms: ['boberdoo'] },
  { alias: 'lp_ping_id', field: 'ping_id', platforms: ['LeadsPedia', 'Lead Prosper'] },
];

/**
 * The fields naming the platform's campaign (or boberdoo's lead type): a lead without `service` takes the
 * service the source's campaign map gives its value (docs/api.md "Default service and campaign map").
 * They are kept in `metadata` (never a warning). The first one sent that the map knows decides.
 */
export const CAMPAIGN_ID_FIELDS: readonly { name: string; platforms: readonly Platform[] }[] = [
  { name: 'lp_campaign_id', platforms: ['LeadsPedia', 'Lead Prosper'] },
  { name: 'campaign_id', platforms: ['LeadConduit'] },
  { name: 'TYPE', platforms: ['boberdoo'] },
  { name: 'Lead_Type', platforms: ['boberdoo'] },
];

/**
 * The platforms' own protocol fields (which call, which answer format, the supplier's id): not the
 * lead's data, so never a warning; kept in `metadata` of a post or lead, not read at a ping.
 */
export const PLATFORM_FIELDS: readonly { name: string; platforms: readonly Platform[] }[] = [
  { name: 'lp_action', platforms: ['Lead Prosper'] },
  { name: 'lp_supplier_id', platforms: ['Lead Prosper'] },
  { name: 'lp_response', platforms: ['LeadsPedia'] },
  { name: 'API_Action', platforms: ['boberdoo'] },
  { name: 'Mode', platforms: ['boberdoo'] },
  { name: 'SRC', platforms: ['boberdoo'] },
  { name: 'Return_Best_Price', platforms: ['boberdoo'] },
];

/** The platforms the docs give a "Connect from" guide for here (LeadConduit's has its own section). */
export const GUIDED_PLATFORMS = ['LeadsPedia', 'boberdoo', 'Lead Prosper'] as const satisfies readonly Platform[];

/** One of a platform's field names and what the exchange makes of it, for the "Connect from" guides. */
export interface PlatformFieldName {
  name: string;
  /** Our field (`zip`), or a sentence: how a campaign id names the service, or that it is kept in metadata. */
  becomes: string;
  /** Whether `becomes` is a field of ours (shown as code) rather than a sentence. */
  isField: boolean;
}

/**
 * What each field name `platform` documents becomes (docs/api.md and the /doc page list these; a test
 * keeps docs/api.md equal to them): its aliases, then its campaign id fields, then its own protocol fields.
 */
export function platformFieldNames(platform: Platform): PlatformFieldName[] {
  const ofPlatform = <T extends { platforms: readonly Platform[] }>(table: readonly T[]) =>
    table.filter((row) => row.platforms.includes(platform));
  const keptAs = (becomes: string) => (f: { name: string }) => ({ name: f.name, becomes, isField: false });
  return [
    ...ofPlatform(FIELD_ALIASES).map((a) => ({ name: a.alias, becomes: a.field, isField: true })),
    ...ofPlatform(CAMPAIGN_ID_FIELDS).map(keptAs('the service, by the source’s campaign map (kept in metadata)')),
    ...ofPlatform(PLATFORM_FIELDS).map(keptAs('kept in metadata')),
  ];
}
