/**
 * The alias table lives in packages/domain (source-api-aliases.ts), so the /doc page renders it and
 * docs/api.md is checked against the same data; the source API reads it from here.
 */
export {
  CAMPAIGN_ID_FIELDS,
  FIELD_ALIASES,
  type FieldAlias,
  PLATFORM_FIELDS,
  PLATFORMS,
  type Platform,
} from '@leadex/domain';
