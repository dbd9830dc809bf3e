import { z } from 'zod';
import { isoDate, namedRefSchema, requiredDollars } from './common';
import { whenMissing } from './messages';

/**
 * The admin's integrations (admin spec §2 Settings, DESIGN.md §11 Integrations): a social-ads account
 * (Facebook), a search-ads account (Google Ads) and a mail account (Gmail), each connected by OAuth 2.
 */
export const INTEGRATION_NAMES = ['facebook-ads', 'google-ads', 'gmail'] as const;
export type IntegrationName = (typeof INTEGRATION_NAMES)[number];

/** The ad integrations: their daily spend is the cost of an internal source. */
export const AD_INTEGRATIONS = ['facebook-ads', 'google-ads'] as const satisfies readonly IntegrationName[];
export type AdIntegrationName = (typeof AD_INTEGRATIONS)[number];
export const isAdIntegration = (name: string): name is AdIntegrationName =>
  (AD_INTEGRATIONS as readonly string[]).includes(name);

export const INTEGRATION_INFO: Record<
  IntegrationName,
  { label: string; kind: string; purpose: string; authPath: string; provider: 'FACEBOOK' | 'GOOGLE' }
> = {
  'facebook-ads': {
    label: 'Facebook Ads',
    kind: 'Social ads',
    purpose: 'Imports the daily ad spend of your Facebook ad accounts as the cost of an internal source.',
    authPath: '/api/facebook/ads-auth',
    provider: 'FACEBOOK',
  },
  'google-ads': {
    label: 'Google Ads',
    kind: 'Search ads',
    purpose: 'Imports the daily ad spend of your Google Ads accounts as the cost of an internal source.',
    authPath: '/api/google/ads-auth',
    provider: 'GOOGLE',
  },
  gmail: {
    label: 'Gmail',
    kind: 'Mail',
    purpose: "Sends the exchange's mail from your Google account instead of SMTP_URL.",
    authPath: '/api/google/gmail-auth',
    provider: 'GOOGLE',
  },
};

/** Admin spec §4: Connected; Expired (the access and the refresh expiry have both passed); Disconnected. */
export const INTEGRATION_STATUSES = ['Connected', 'Expired', 'Disconnected'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

/**
 * The status of stored tokens at `now` (epoch ms). A token with no expiry never expires; an access
 * token without a refresh token is expired when the access token is.
 */
export function integrationStatus(
  now: number,
  tokens: { expiresAt: number | null; refreshExpiresAt: number | null; hasRefreshToken: boolean } | null,
): IntegrationStatus {
  if (!tokens) return 'Disconnected';
  const accessExpired = tokens.expiresAt !== null && tokens.expiresAt <= now;
  const refreshExpired =
    !tokens.hasRefreshToken || (tokens.refreshExpiresAt !== null && tokens.refreshExpiresAt <= now);
  return accessExpired && refreshExpired ? 'Expired' : 'Connected';
}

/** One integration in GET /api/setting/allForCat/integration (admin spec §3 Integration setting; never a token). */
export const integrationSettingSchema = z.object({
  name: z.enum(INTEGRATION_NAMES),
  label: z.string(),
  kind: z.string(),
  purpose: z.string(),
  status: z.enum(INTEGRATION_STATUSES),
  /** Where Connect sends the browser. */
  authPath: z.string(),
  /** False when the provider's client id or secret is not set: `missingVariables` names them. */
  configured: z.boolean(),
  missingVariables: z.array(z.string()),
  /** The connected account (the Google account's email; the Facebook user), if the provider named it. */
  account: z.string().nullable(),
  /** Epoch seconds. */
  connectedAt: z.number().nullable(),
  accessToken: z
    .object({ expiry_date: z.number().nullable(), refresh_token_expiry_date: z.number().nullable() })
    .nullable(),
  /** Ad integrations: the internal source their spend is the cost of. */
  sourceId: z.string().nullable(),
  /** Ad integrations: the last import (epoch seconds) and its error, if it failed. */
  lastImportAt: z.number().nullable(),
  lastImportError: z.string().nullable(),
});
export type IntegrationSetting = z.infer<typeof integrationSettingSchema>;

/** PUT /api/setting/integration/{name}: the internal source an ad integration's spend is the cost of. */
export const integrationSourceSchema = z.object({
  sourceId: z.string().trim().min(1).nullable(),
});

/** The largest day's spend one entry may record, in dollars. */
export const MAX_DAILY_AD_SPEND = 1_000_000;

/** PUT /api/ad-spend: a day's ad spend of an internal source, entered by hand (replaces that day's manual entry). */
export const adSpendEntrySchema = z.object({
  sourceId: z
    .string({ error: whenMissing('Source is required') })
    .trim()
    .min(1, 'Source is required'),
  day: isoDate('Date'),
  amount: requiredDollars('Amount', MAX_DAILY_AD_SPEND),
});
export type AdSpendEntry = z.infer<typeof adSpendEntrySchema>;

/** Where a day's spend came from. */
export const adSpendOriginSchema = z.enum(['manual', ...AD_INTEGRATIONS]);
export type AdSpendOrigin = z.infer<typeof adSpendOriginSchema>;

/** One row of GET /api/ad-spend. */
export const adSpendRowSchema = z.object({
  _id: z.string(),
  day: z.string(),
  sourceId: z.string(),
  sourceName: z.string(),
  origin: adSpendOriginSchema,
  amount: z.number(),
});
export type AdSpendRow = z.infer<typeof adSpendRowSchema>;

/** GET /api/ad-spend: the spend of the last `days` New York days. */
export const adSpendListQuery = z.object({
  days: z.coerce.number().int().min(1).max(366).default(31),
});

/** POST /api/ad-spend/csv answers how many days it recorded. */
export const adSpendUploadResultSchema = z.object({ imported: z.number() });
export type AdSpendUploadResult = z.infer<typeof adSpendUploadResultSchema>;

/** GET /api/ad-spend: the rows of the last days. */
export const adSpendListSchema = z.object({ data: z.array(adSpendRowSchema) });
export type AdSpendList = z.infer<typeof adSpendListSchema>;

/** GET /api/ad-spend/sources: the internal sources a day's spend may be the cost of. */
export const adSpendSourcesSchema = z.object({ data: z.array(namedRefSchema) });
export type AdSpendSources = z.infer<typeof adSpendSourcesSchema>;
