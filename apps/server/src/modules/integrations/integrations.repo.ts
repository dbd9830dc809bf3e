import type { IntegrationName } from '@leadex/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

export const INTEGRATION_CATEGORY = 'integration';

/**
 * An integration's setting (admin spec §3 Integration setting): tokens sealed with LEADEX_SECRET's
 * integration key, instants in epoch milliseconds. Disconnecting drops the tokens and keeps the rest.
 */
export interface StoredIntegration {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
  refreshExpiresAt: number | null;
  account: string | null;
  connectedAt: number | null;
  /** When the admins were told it expired (once per expiry; cleared by a reconnect). */
  expiredNotifiedAt: number | null;
  sourceId: string | null;
  lastImportAt: number | null;
  lastImportError: string | null;
}

/** What disconnecting clears: the tokens and what they say (the chosen source and the last import stay). */
export const DISCONNECTED = {
  accessToken: null,
  refreshToken: null,
  expiresAt: null,
  refreshExpiresAt: null,
  account: null,
  connectedAt: null,
  expiredNotifiedAt: null,
} satisfies Partial<StoredIntegration>;

export const EMPTY_INTEGRATION: StoredIntegration = {
  ...DISCONNECTED,
  sourceId: null,
  lastImportAt: null,
  lastImportError: null,
};

const keyOf = (name: IntegrationName) => `integration:${name}`;

export const integrationsRepo = {
  async find(db: Db, name: IntegrationName): Promise<StoredIntegration> {
    const [row] = await db
      .select({ value: settings.value })
      .from(settings)
      .where(eq(settings.key, keyOf(name)));
    return { ...EMPTY_INTEGRATION, ...((row?.value as Partial<StoredIntegration> | undefined) ?? {}) };
  },

  /** Writes the changed fields over what is stored (one statement, so two writers never lose a field of each other's). */
  async update(db: Db, name: IntegrationName, change: Partial<StoredIntegration>, at: Date): Promise<void> {
    const value = { ...EMPTY_INTEGRATION, ...change };
    await db
      .insert(settings)
      .values({ key: keyOf(name), category: INTEGRATION_CATEGORY, value, updatedAt: at })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: sqlMerge(change), updatedAt: at },
      });
  },
};

/** `value || change` in jsonb: the stored fields, with the changed ones replaced. */
const sqlMerge = (change: Partial<StoredIntegration>) => sql`${settings.value} || ${JSON.stringify(change)}::jsonb`;
