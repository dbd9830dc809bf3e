import type { IntegrationName } from '@leadex/domain';
import { INTEGRATION_INFO } from '@leadex/domain';
import type { LightMyRequestResponse } from 'fastify';
import { OAuth2Server } from 'oauth2-mock-server';
import type { Config } from '../src/config';
import { useFixture } from './fixtures';
import type { TestApp } from './harness';

/** A token request the provider received (its form body) and what it answered. */
export interface TokenExchange {
  request: Record<string, string>;
  status: number;
  body: Record<string, unknown>;
}

/**
 * A local OAuth 2 provider (oauth2-mock-server): /authorize sends the browser straight back with a code
 * and the state, /token issues signed tokens with a refresh token and an id token. `exchanges` records
 * every token request; `nextTokenResponse` scripts the next answer (a refusal, another lifetime).
 */
export async function startOAuthServer() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url as string;
  const exchanges: TokenExchange[] = [];
  const scripted: ((body: { statusCode: number; body: Record<string, unknown> }) => void)[] = [];
  let email: string | null = null;
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    if (email) token.payload.email = email;
  });
  server.service.on(
    'beforeResponse',
    (response: { statusCode: number; body: Record<string, unknown> }, req: { body: Record<string, string> }) => {
      scripted.shift()?.(response);
      exchanges.push({ request: { ...req.body }, status: response.statusCode, body: { ...response.body } });
    },
  );
  return {
    url,
    exchanges,
    /** Changes the next token answer (e.g. a refusal: status 400 and `{ error: 'invalid_grant' }`). */
    nextTokenResponse(change: (response: { statusCode: number; body: Record<string, unknown> }) => void) {
      scripted.push(change);
    },
    /** The email the id tokens claim from now on (Gmail sends as it). */
    claimEmail(address: string | null) {
      email = address;
    },
    /** The exchange's configuration of both providers pointed at this server. */
    config(): Partial<Config> {
      return {
        GOOGLE_OAUTH_CLIENT_ID: 'google-client',
        GOOGLE_OAUTH_CLIENT_SECRET: 'google-secret',
        GOOGLE_OAUTH_AUTHORIZE_URL: `${url}/authorize`,
        GOOGLE_OAUTH_TOKEN_URL: `${url}/token`,
        FACEBOOK_OAUTH_CLIENT_ID: 'facebook-client',
        FACEBOOK_OAUTH_CLIENT_SECRET: 'facebook-secret',
        FACEBOOK_OAUTH_AUTHORIZE_URL: `${url}/authorize`,
        FACEBOOK_OAUTH_TOKEN_URL: `${url}/token`,
      };
    },
    close: () => server.stop(),
  };
}

export type OAuthPeer = Awaited<ReturnType<typeof startOAuthServer>>;

/** The provider of one test file, started before the app that is configured with it. */
export function useOAuthServer(): OAuthPeer {
  return useFixture(startOAuthServer, (peer) => peer.close());
}

/** The `name=value` of the OAuth state cookie a response set. */
export function stateCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'leadex_oauth');
  if (!cookie) throw new Error(`no state cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return `${cookie.name}=${cookie.value}`;
}

/**
 * Connect as a browser does it: the exchange's redirect, the provider's authorization (which answers
 * at once), and the callback with the state cookie. Answers the callback's response.
 */
export async function connectIntegration(
  t: TestApp,
  admin: string,
  name: IntegrationName,
): Promise<LightMyRequestResponse> {
  const start = await t.request({ method: 'GET', url: INTEGRATION_INFO[name].authPath, as: admin });
  if (start.statusCode !== 302) throw new Error(`Connect answered ${start.statusCode}: ${start.body}`);
  const authorized = await fetch(String(start.headers.location), { redirect: 'manual' });
  const back = new URL(String(authorized.headers.get('location')));
  return t.request({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    as: `${admin}; ${stateCookie(start)}`,
  });
}
