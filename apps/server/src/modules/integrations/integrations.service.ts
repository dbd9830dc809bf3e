import {
  type AdIntegrationName,
  INTEGRATION_INFO,
  INTEGRATION_NAMES,
  type IntegrationName,
  type IntegrationSetting,
  integrationStatus,
  isAdIntegration,
} from '@leadex/domain';
import {
  ArcticFetchError,
  CodeChallengeMethod,
  decodeIdToken,
  generateCodeVerifier,
  generateState,
  OAuth2Client,
  OAuth2RequestError,
  type OAuth2Tokens,
} from 'arctic';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Logger } from '../../lib/logger';
import { decrypt, deriveKey, encrypt } from '../../lib/secrets';
import type { MessagesService } from '../messages/messages.service';
import { DISCONNECTED, integrationsRepo, type StoredIntegration } from './integrations.repo';
import { callbackUrl, missingVariables, type OAuthProvider, providersOf } from './providers';

/** How long a Connect may take between the redirect and the callback. */
const STATE_TTL_MS = 10 * 60_000;
/** Tokens are refreshed this long before they expire (the refresh job runs every 5 minutes). */
export const REFRESH_AHEAD_MS = 15 * 60_000;

/** What the browser keeps between the redirect and the callback: sealed, so it cannot be read or forged. */
interface PendingAuthorization {
  name: IntegrationName;
  state: string;
  verifier: string | null;
  userId: string;
  expiresAt: number;
}

export interface AuthorizationRedirect {
  url: string;
  /** The sealed pending authorization, for the state cookie. */
  sealed: string;
}

const seconds = (ms: number | null) => (ms === null ? null : toEpochSeconds(new Date(ms)));
const providerLabel = (name: IntegrationName) => INTEGRATION_INFO[name].label;

/**
 * The admin's OAuth integrations (DESIGN.md §11): Connect redirects to the provider with a state (and a
 * PKCE verifier where taken) sealed into a cookie; the callback checks it and stores the tokens
 * encrypted; a job refreshes them ahead of expiry and tells the admins, once, when one has expired.
 */
export function createIntegrationsService({
  db,
  clock,
  config,
  logger,
  messages,
}: {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Pick<Logger, 'error' | 'warn'>;
  /** Where an expired integration is told to the admins. */
  messages: Pick<MessagesService, 'raise'>;
}) {
  const providers = providersOf(config);
  const tokenKey = deriveKey(config.LEADEX_SECRET, 'integration-tokens');
  const stateKey = deriveKey(config.LEADEX_SECRET, 'oauth-state');
  const clientOf = (provider: OAuthProvider) =>
    new OAuth2Client(provider.clientId ?? '', provider.clientSecret ?? null, callbackUrl(config, provider.name));

  const tokensOf = (stored: StoredIntegration) =>
    stored.accessToken === null
      ? null
      : {
          expiresAt: stored.expiresAt,
          refreshExpiresAt: stored.refreshExpiresAt,
          hasRefreshToken: stored.refreshToken !== null,
        };

  function settingOf(name: IntegrationName, stored: StoredIntegration): IntegrationSetting {
    const info = INTEGRATION_INFO[name];
    const missing = missingVariables(providers[name]);
    return {
      name,
      label: info.label,
      kind: info.kind,
      purpose: info.purpose,
      status: integrationStatus(clock.now().getTime(), tokensOf(stored)),
      authPath: info.authPath,
      configured: missing.length === 0,
      missingVariables: missing,
      account: stored.accessToken === null ? null : stored.account,
      connectedAt: stored.accessToken === null ? null : seconds(stored.connectedAt),
      accessToken:
        stored.accessToken === null
          ? null
          : { expiry_date: seconds(stored.expiresAt), refresh_token_expiry_date: seconds(stored.refreshExpiresAt) },
      sourceId: isAdIntegration(name) ? stored.sourceId : null,
      lastImportAt: seconds(stored.lastImportAt),
      lastImportError: stored.lastImportError,
    };
  }

  /** The instants a token response gives, from now: expiry of the access token and, if said, of the refresh token. */
  function storedTokens(tokens: OAuth2Tokens, previousRefresh: string | null) {
    const data = tokens.data as Record<string, unknown>;
    const now = clock.now().getTime();
    const expiresIn = Number(data.expires_in);
    const refreshExpiresIn = Number(data.refresh_token_expires_in);
    const refreshToken = typeof data.refresh_token === 'string' ? data.refresh_token : null;
    return {
      accessToken: encrypt(tokenKey, tokens.accessToken()),
      refreshToken: refreshToken ? encrypt(tokenKey, refreshToken) : previousRefresh,
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? now + expiresIn * 1000 : null,
      ...(refreshToken || !previousRefresh
        ? {
            refreshExpiresAt:
              Number.isFinite(refreshExpiresIn) && refreshExpiresIn > 0 ? now + refreshExpiresIn * 1000 : null,
          }
        : {}),
    };
  }

  /** The account a Google grant names (the id token's email, as the token endpoint itself answered it). */
  function accountOf(tokens: OAuth2Tokens): string | null {
    const idToken = (tokens.data as { id_token?: unknown }).id_token;
    if (typeof idToken !== 'string') return null;
    try {
      const claims = decodeIdToken(idToken) as { email?: unknown };
      return typeof claims.email === 'string' ? claims.email : null;
    } catch {
      return null;
    }
  }

  /** A provider's refusal or an unreachable provider, in a sentence for the admin. */
  function failure(name: IntegrationName, error: unknown): AppError {
    const label = providerLabel(name);
    if (error instanceof OAuth2RequestError)
      return new AppError('bad_request', `${label} refused the connection: ${error.description ?? error.code}.`);
    if (error instanceof ArcticFetchError)
      return new AppError('unavailable', `${label} could not be reached. Try again in a moment.`);
    logger.error({ err: error, integration: name }, 'integrations: a token request failed');
    return new AppError('unavailable', `${label} answered in a way the exchange did not understand. Try again.`);
  }

  /** A refresh token that may still be used (none, or one past its expiry or refused, may not). */
  const refreshAlive = (
    stored: StoredIntegration,
    now: number,
  ): stored is StoredIntegration & { refreshToken: string } =>
    stored.refreshToken !== null && (stored.refreshExpiresAt === null || stored.refreshExpiresAt > now);

  async function refresh(name: IntegrationName, stored: StoredIntegration): Promise<StoredIntegration> {
    const provider = providers[name];
    const now = clock.now();
    if (!refreshAlive(stored, now.getTime())) return stored;
    try {
      const tokens = await clientOf(provider).refreshAccessToken(
        provider.tokenUrl,
        decrypt(tokenKey, stored.refreshToken),
        [],
      );
      const change = storedTokens(tokens, stored.refreshToken);
      await integrationsRepo.update(db, name, change, now);
      return { ...stored, ...change };
    } catch (error) {
      if (error instanceof OAuth2RequestError) {
        // The grant was revoked or has lapsed: the refresh token is dead from now on.
        logger.warn({ integration: name, code: error.code }, 'integrations: the provider refused a refresh');
        const change = { refreshExpiresAt: now.getTime() };
        await integrationsRepo.update(db, name, change, now);
        return { ...stored, ...change };
      }
      throw failure(name, error);
    }
  }

  async function notifyIfExpired(name: IntegrationName, stored: StoredIntegration): Promise<boolean> {
    const now = clock.now();
    if (integrationStatus(now.getTime(), tokensOf(stored)) !== 'Expired' || stored.expiredNotifiedAt !== null)
      return false;
    await integrationsRepo.update(db, name, { expiredNotifiedAt: now.getTime() }, now);
    await messages.raise({
      id: newId('msg'),
      text: `The ${providerLabel(name)} integration has expired. Reconnect it in Settings.`,
      data: { kind: 'integration_expired', integration: name, link: '/settings' },
      createdAt: now,
    });
    return true;
  }

  const getSetting = async (name: IntegrationName): Promise<IntegrationSetting> =>
    settingOf(name, await integrationsRepo.find(db, name));

  return {
    async list(): Promise<IntegrationSetting[]> {
      return Promise.all(INTEGRATION_NAMES.map(async (name) => settingOf(name, await integrationsRepo.find(db, name))));
    },

    get: getSetting,

    /** The provider's authorization URL, and the pending authorization to seal into the browser's cookie. */
    authorize(name: IntegrationName, userId: string): AuthorizationRedirect {
      const provider = providers[name];
      const missing = missingVariables(provider);
      if (missing.length > 0)
        throw new AppError(
          'conflict',
          `${providerLabel(name)} is not configured: set ${missing.join(' and ')} on the server.`,
        );
      const state = generateState();
      const verifier = provider.pkce ? generateCodeVerifier() : null;
      const client = clientOf(provider);
      const url = verifier
        ? client.createAuthorizationURLWithPKCE(
            provider.authorizeUrl,
            state,
            CodeChallengeMethod.S256,
            verifier,
            provider.scopes,
          )
        : client.createAuthorizationURL(provider.authorizeUrl, state, provider.scopes);
      for (const [key, value] of Object.entries(provider.extraAuthorizeParams)) url.searchParams.set(key, value);
      const pending: PendingAuthorization = {
        name,
        state,
        verifier,
        userId,
        expiresAt: clock.now().getTime() + STATE_TTL_MS,
      };
      return { url: url.toString(), sealed: encrypt(stateKey, JSON.stringify(pending)) };
    },

    /**
     * The provider's answer: the state must be the one sealed in this browser's cookie for this admin
     * and integration, within 10 minutes; then the code is exchanged and the tokens stored encrypted.
     */
    async callback(
      name: IntegrationName,
      query: { code?: string; state?: string; error?: string; error_description?: string },
      sealed: string | undefined,
      userId: string,
    ): Promise<IntegrationSetting> {
      const label = providerLabel(name);
      if (query.error)
        throw new AppError('bad_request', `${label} was not connected: ${query.error_description ?? query.error}.`);
      let pending: PendingAuthorization | null = null;
      try {
        pending = sealed ? (JSON.parse(decrypt(stateKey, sealed)) as PendingAuthorization) : null;
      } catch {
        pending = null;
      }
      const valid =
        pending !== null &&
        pending.name === name &&
        pending.userId === userId &&
        typeof query.state === 'string' &&
        pending.state === query.state &&
        pending.expiresAt > clock.now().getTime();
      if (!valid || !pending)
        throw new AppError(
          'bad_request',
          `The ${label} connection could not be verified (it expired or was started elsewhere). Connect again.`,
        );
      if (!query.code) throw new AppError('bad_request', `${label} sent no authorization code. Connect again.`);
      const provider = providers[name];
      let tokens: OAuth2Tokens;
      try {
        tokens = await clientOf(provider).validateAuthorizationCode(provider.tokenUrl, query.code, pending.verifier);
      } catch (error) {
        throw failure(name, error);
      }
      const account = accountOf(tokens);
      if (name === 'gmail' && !account)
        throw new AppError(
          'bad_request',
          'The Google account did not share its email address, which Gmail sends from. Connect again and allow it.',
        );
      const now = clock.now();
      await integrationsRepo.update(
        db,
        name,
        {
          ...storedTokens(tokens, null),
          account,
          connectedAt: now.getTime(),
          expiredNotifiedAt: null,
          lastImportError: null,
        },
        now,
      );
      return getSetting(name);
    },

    async disconnect(name: IntegrationName): Promise<IntegrationSetting> {
      await integrationsRepo.update(db, name, DISCONNECTED, clock.now());
      return getSetting(name);
    },

    /** Which internal source an ad integration's spend is the cost of (ad-spend.service checks it is one). */
    async setSource(name: AdIntegrationName, sourceId: string | null): Promise<IntegrationSetting> {
      await integrationsRepo.update(db, name, { sourceId }, clock.now());
      return getSetting(name);
    },

    /** Records the outcome of an ad spend import. */
    async recordImport(name: IntegrationName, error: string | null): Promise<void> {
      const now = clock.now();
      await integrationsRepo.update(db, name, { lastImportAt: now.getTime(), lastImportError: error }, now);
    },

    async stored(name: IntegrationName): Promise<StoredIntegration> {
      return integrationsRepo.find(db, name);
    },

    /**
     * A usable access token: the stored one, refreshed first when it expires within the refresh margin;
     * null when not connected or expired.
     */
    async accessToken(name: IntegrationName): Promise<{ token: string; account: string | null } | null> {
      let stored = await integrationsRepo.find(db, name);
      if (stored.accessToken === null) return null;
      const now = clock.now().getTime();
      if (stored.expiresAt !== null && stored.expiresAt - now < REFRESH_AHEAD_MS) stored = await refresh(name, stored);
      if (stored.accessToken === null || (stored.expiresAt !== null && stored.expiresAt <= now)) return null;
      return { token: decrypt(tokenKey, stored.accessToken), account: stored.account };
    },

    /**
     * The refresh job's round: every connected integration whose access token expires within the margin
     * is refreshed; one that has expired raises an admin message, once.
     */
    async refreshDue(): Promise<{ refreshed: IntegrationName[]; expired: IntegrationName[] }> {
      const refreshed: IntegrationName[] = [];
      const expired: IntegrationName[] = [];
      for (const name of INTEGRATION_NAMES) {
        let stored = await integrationsRepo.find(db, name);
        if (stored.accessToken === null) continue;
        const now = clock.now().getTime();
        if (refreshAlive(stored, now) && stored.expiresAt !== null && stored.expiresAt - now < REFRESH_AHEAD_MS) {
          try {
            const before = stored.expiresAt;
            stored = await refresh(name, stored);
            if (stored.expiresAt !== before) refreshed.push(name);
          } catch (error) {
            // Unreachable provider: the next round tries again; the admins hear of it only when it expires.
            logger.error({ err: error, integration: name }, 'integrations: a refresh failed');
          }
        }
        if (await notifyIfExpired(name, stored)) expired.push(name);
      }
      return { refreshed, expired };
    },
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
