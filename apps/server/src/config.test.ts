import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_ADMIN_PASSWORD, DEVELOPMENT_SECRET, loadConfig } from './config';

describe('config', () => {
  it('has working defaults for a laptop', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LEADEX_ROLE: 'all',
      PUBLIC_URL: 'http://localhost:3000',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('refuses to start in production without DATABASE_URL or LEADEX_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/DATABASE_URL: is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/leadex' })).toThrow(/LEADEX_SECRET/);
    expect(
      loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/leadex', LEADEX_SECRET: 'x'.repeat(32) })
        .NODE_ENV,
    ).toBe('production');
  });

  it('refuses the public development secret and admin password in production, and has no admin password default there', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/leadex', LEADEX_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...production, LEADEX_SECRET: DEVELOPMENT_SECRET })).toThrow(
      /LEADEX_SECRET: is the public development secret/,
    );
    expect(() => loadConfig({ ...production, ADMIN_PASSWORD: DEVELOPMENT_ADMIN_PASSWORD })).toThrow(
      /ADMIN_PASSWORD: is the public development password/,
    );
    expect(loadConfig(production).ADMIN_PASSWORD).toBeUndefined();
    expect(loadConfig({}).ADMIN_PASSWORD).toBe(DEVELOPMENT_ADMIN_PASSWORD);
  });

  it('reads an empty variable as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', SMTP_URL: '', PORT: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
  });

  it('names a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ LEADEX_ROLE: 'everything' })).toThrow(/LEADEX_ROLE/);
  });
});
