import { INTEGRATION_INFO, type IntegrationName } from '@leadex/domain';
import type { Config } from '../../config';

/** How one integration is authorized: its provider's client and endpoints (config), and what it asks for. */
export interface OAuthProvider {
  name: IntegrationName;
  clientId: string | undefined;
  clientSecret: string | undefined;
  authorizeUrl: string;
  tokenUrl: string;
  scopes: string[];
  /** PKCE (S256) where the provider takes it (DESIGN.md §11). */
  pkce: boolean;
  /** More query parameters of the authorization redirect. */
  extraAuthorizeParams: Record<string, string>;
  /** The variables that must be set before Connect can work. */
  requiredVariables: string[];
}

/**
 * The three integrations. Google's are asked for offline access with consent, so the first grant
 * carries a refresh token; Facebook issues no refresh token (its tokens are reconnected when they expire).
 */
export function providersOf(config: Config): Record<IntegrationName, OAuthProvider> {
  const facebook = {
    clientId: config.FACEBOOK_OAUTH_CLIENT_ID,
    clientSecret: config.FACEBOOK_OAUTH_CLIENT_SECRET,
    authorizeUrl: config.FACEBOOK_OAUTH_AUTHORIZE_URL,
    tokenUrl: config.FACEBOOK_OAUTH_TOKEN_URL,
    pkce: false,
    extraAuthorizeParams: {},
    requiredVariables: ['FACEBOOK_OAUTH_CLIENT_ID', 'FACEBOOK_OAUTH_CLIENT_SECRET'],
  };
  const google = {
    clientId: config.GOOGLE_OAUTH_CLIENT_ID,
    clientSecret: config.GOOGLE_OAUTH_CLIENT_SECRET,
    authorizeUrl: config.GOOGLE_OAUTH_AUTHORIZE_URL,
    tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
    pkce: true,
    extraAuthorizeParams: { access_type: 'offline', prompt: 'consent' },
    requiredVariables: ['GOOGLE_OAUTH_CLIENT_ID', 'GOOGLE_OAUTH_CLIENT_SECRET'],
  };
  return {
    'facebook-ads': { name: 'facebook-ads', ...facebook, scopes: ['ads_read'] },
    'google-ads': {
      name: 'google-ads',
      ...google,
      scopes: ['openid', 'email', 'https://www.googleapis.com/auth/adwords'],
    },
    // https://mail.google.com/ is the scope Gmail's SMTP (XOAUTH2) takes.
    gmail: { name: 'gmail', ...google, scopes: ['openid', 'email', 'https://mail.google.com/'] },
  };
}

/** The variables a provider still needs (none when Connect can work). */
export const missingVariables = (provider: OAuthProvider): string[] =>
  provider.requiredVariables.filter((_, i) => !(i === 0 ? provider.clientId : provider.clientSecret));

/** The callback under PUBLIC_URL that the provider sends the browser back to. */
export const callbackUrl = (config: Config, name: IntegrationName): string =>
  new URL(`${INTEGRATION_INFO[name].authPath}/callback`, config.PUBLIC_URL).toString();
