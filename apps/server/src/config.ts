import { z } from 'zod';

/** A fixed development secret: fine on a laptop, refused in production by the schema below. */
export const DEVELOPMENT_SECRET = 'leadex-development-secret-not-for-production';
/** The first admin's password outside production (README); refused in production. */
export const DEVELOPMENT_ADMIN_PASSWORD = 'leadex-admin-1';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    /** Where the embedded database keeps its files. */
    DATA_DIR: z.string().default('./data'),
    /** A PostgreSQL URL; without it the embedded PGlite database is used. */
    DATABASE_URL: z.string().url().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).default(10),
    /** How long a query waits for a database connection before the request answers 503 (PostgreSQL). */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
    /** The longest one SQL statement may run (PostgreSQL's statement_timeout; 0 = no limit). */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
    ADMIN_EMAIL: z.string().email().default('admin@leadex.local'),
    /** The first admin's password; outside production a documented default (refused in production). */
    ADMIN_PASSWORD: z.string().min(8).optional(),
    /** Signs sessions and ping ids, encrypts API keys. */
    LEADEX_SECRET: z.string().min(32).optional(),
    /** The address users reach the exchange at; links in emails start with it. */
    PUBLIC_URL: z.string().url().optional(),
    /** More origins (comma-separated URLs) whose pages may sign in and write with a session (DESIGN.md §11). */
    TRUSTED_ORIGINS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        const origins: string[] = [];
        for (const entry of value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)) {
          try {
            origins.push(new URL(entry).origin);
          } catch {
            ctx.addIssue({ code: 'custom', message: `"${entry}" is not a URL such as https://leads.example.com` });
          }
        }
        return origins;
      }),
    /**
     * The key TrustedForm seals a web or mobile certificate id's creation time with (what
     * `@activeprospect/trustedform-cert-id` reads as CERT_IDS_SECRET_KEY; its first 32 characters).
     * Unset (the usual case: ActiveProspect holds it), a certificate's age cannot be read and none is
     * flagged as expired.
     */
    TRUSTEDFORM_CERT_ID_SECRET: z.string().min(32).optional(),
    SMTP_URL: z.string().url().optional(),
    /**
     * Group commit of sales (issue 36): the fewest waiting posts stored together in one statement; 0
     * stores each alone. Measured: one process sells 1.5x faster with groups, but several API processes
     * on one database sell 3x slower with them (their groups wait on each other's counters), so a
     * deployment of several processes sets 0 (docs/operations.md).
     */
    SALE_GROUP_MIN: z.coerce.number().int().min(0).max(50).default(4),
    /** Stripe (DESIGN.md §11 Payments): unset, bills accrue and close and payments wait. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** Where the Stripe SDK sends its calls (tests: a local Stripe-compatible server); Stripe's own by default. */
    STRIPE_API_BASE: z.string().url().optional(),
    /** Verifies Stripe's webhook calls (POST /api/stripe/webhook). */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** The browser's card form (Stripe Elements). */
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    MAIL_FROM: z.string().default('Leadex <no-reply@leadex.local>'),
    /**
     * OAuth 2 integrations (DESIGN.md §11 Integrations): without a client id and secret a provider's
     * integrations say they are not configured. Every provider address is configuration (tests use
     * local servers); the real providers' are the defaults.
     */
    FACEBOOK_OAUTH_CLIENT_ID: z.string().min(1).optional(),
    FACEBOOK_OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
    FACEBOOK_OAUTH_AUTHORIZE_URL: z.string().url().default('https://www.facebook.com/v21.0/dialog/oauth'),
    FACEBOOK_OAUTH_TOKEN_URL: z.string().url().default('https://graph.facebook.com/v21.0/oauth/access_token'),
    /** The Graph API (ad accounts and their insights). */
    FACEBOOK_API_URL: z.string().url().default('https://graph.facebook.com'),
    GOOGLE_OAUTH_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_OAUTH_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_OAUTH_AUTHORIZE_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    GOOGLE_OAUTH_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
    /** The Google Ads API (accessible customers and their cost). */
    GOOGLE_API_URL: z.string().url().default('https://googleads.googleapis.com'),
    /** Google Ads asks every API call for the developer token of the exchange's Google Ads manager account. */
    GOOGLE_ADS_DEVELOPER_TOKEN: z.string().min(1).optional(),
    /** Where mail goes when the Gmail integration is connected (XOAUTH2 over SMTP). */
    GMAIL_SMTP_URL: z.string().url().default('smtps://smtp.gmail.com:465'),
    /** api: HTTP only; worker: jobs only; all: both (DESIGN.md §1). */
    LEADEX_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    /** Where the built SPA is; served for every non-API path. */
    WEB_DIST: z.string().optional(),
    /** A delivery's Test calls a minute per user (each is an outbound call the user aims); 0 turns the limit off. */
    DELIVERY_TEST_PER_MINUTE: z.coerce.number().int().min(0).default(10),
    /** Buyers' Message Us messages an hour per user (each lands in the admins' Messages); 0 turns the limit off. */
    BUYER_MESSAGES_PER_HOUR: z.coerce.number().int().min(0).default(20),
    /** Public source API requests a second per API key; 0 turns the limit off (benchmarks). */
    PUBLIC_API_RATE_LIMIT: z.coerce.number().int().min(0).default(200),
    /**
     * Sign-in, sign-up and password-reset requests a minute from one client address (the socket's, or
     * X-Forwarded-For's behind TRUST_PROXY); 0 turns a limit off.
     */
    AUTH_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(0).default(20),
    AUTH_SIGN_UP_PER_MINUTE: z.coerce.number().int().min(0).default(10),
    AUTH_PASSWORD_RESET_PER_MINUTE: z.coerce.number().int().min(0).default(5),
    /**
     * Failed sign-ins of one account from one client address before each further attempt from there
     * waits, 1 s doubling up to an hour (sign-in-limit.ts; ASVS 2.2.1: throttled, never locked).
     */
    SIGN_IN_FAILURES_BEFORE_DELAY: z.coerce.number().int().min(1).max(100).default(5),
    /** Behind a load balancer: trust X-Forwarded-For for the client address (rate limits). */
    TRUST_PROXY: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * Lets deliveries reach private, loopback and link-local addresses (DESIGN.md §6): for
     * development and tests with a local receiver only, never in production.
     */
    ALLOW_PRIVATE_DELIVERY_TARGETS: bool.default(false),
    /** Twilio for SMS notifications; without all three, texts are kept in the outbox. */
    TWILIO_ACCOUNT_SID: z.string().optional(),
    TWILIO_AUTH_TOKEN: z.string().optional(),
    TWILIO_FROM: z.string().optional(),
    /** Waits between a notify channel's attempts, in milliseconds (DESIGN.md §6: 10 s, 1, 5, 15, 30 min). */
    DELIVERY_RETRY_DELAYS_MS: z
      .string()
      .regex(/^\d+(,\d+)*$/, 'a comma-separated list of milliseconds')
      .default('10000,60000,300000,900000,1800000')
      .transform((v) => v.split(',').map(Number)),
    /** An active job not finished in this time (a crashed worker) is run again. */
    JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).default(60),
    /** How often an idle worker looks for jobs (pg-boss allows 0.5 at least). */
    JOB_POLL_SECONDS: z.coerce.number().min(0.5).default(2),
    /** Notify workers per process, each delivering a batch of 10 jobs side by side. */
    DELIVERY_WORKERS: z.coerce.number().int().min(1).max(32).default(4),
    /** How often the dispatcher looks for sold matches without jobs, besides the sale's own kick. */
    DISPATCH_INTERVAL_MS: z.coerce.number().int().min(10).default(5000),
    /** A match queued this long ago with no outcome has its jobs sent again (a crash between claim and send). */
    DELIVERY_STALE_SECONDS: z.coerce.number().int().min(1).default(3600),
    /** Seed the demo exchange when the database is empty; by default everywhere but production. */
    SEED_DEMO: bool.optional(),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && !c.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_URL'],
        message: 'is required in production (the embedded database is for development)',
      });
    }
    if (c.NODE_ENV === 'production' && !c.LEADEX_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['LEADEX_SECRET'],
        message: 'is required in production (at least 32 characters)',
      });
    }
    // The documented development values are public: in production they would let anyone forge
    // sessions and ping ids, or sign in as the admin.
    if (c.NODE_ENV === 'production' && c.LEADEX_SECRET === DEVELOPMENT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['LEADEX_SECRET'],
        message: 'is the public development secret: set a random one of your own (openssl rand -hex 32)',
      });
    }
    if (c.NODE_ENV === 'production' && c.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'is the public development password: set one of your own',
      });
    }
  });

/**
 * ADMIN_PASSWORD is unset only in production, where the admin must then already be in the database
 * (users.service.ts `ensureAdmin` refuses to create one without it).
 */
export type Config = z.infer<typeof configSchema> & { LEADEX_SECRET: string; PUBLIC_URL: string; SEED_DEMO: boolean };

/** Parses the environment once; a bad value stops the start with every problem named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`DATABASE_URL=` in a shell or compose file) means unset, not invalid.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    ...c,
    LEADEX_SECRET: c.LEADEX_SECRET ?? DEVELOPMENT_SECRET,
    ADMIN_PASSWORD: c.ADMIN_PASSWORD ?? (c.NODE_ENV === 'production' ? undefined : DEVELOPMENT_ADMIN_PASSWORD),
    SEED_DEMO: c.SEED_DEMO ?? c.NODE_ENV !== 'production',
    PUBLIC_URL: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}
