import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness';
import { isAssetPath } from './spa';

/** A built web app of two files: its index.html and one chunk. */
const webDist = mkdtempSync(join(tmpdir(), 'leadex-spa-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(webDist, 'assets', 'LeadsPage-abc123.js'), 'export const x = 1;');

const t = useTestApp({ WEB_DIST: webDist });
const get = (url: string) => t.request({ method: 'GET', url });

describe('the web app (issue 27 item 8: a missing asset is not index.html)', () => {
  it('serves a chunk that exists as JavaScript', async () => {
    const res = await get('/assets/LeadsPage-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  it('answers 404 for a chunk a redeploy removed, and for any other missing file', async () => {
    for (const url of ['/assets/LeadsPage-old999.js', '/assets/index-old.css', '/assets/gone', '/logo-missing.png']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toMatch(/html/);
      expect(res.body, url).not.toContain('<div id="root">');
    }
  });

  it('still answers index.html for the screens of the app, deep links and queries included', async () => {
    for (const url of ['/', '/leads', '/lead/lead_01m8drg5mnx2xxawcn23mcwf7r', '/buyers?name=a.b', '/doc/api']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('<div id="root">');
    }
  });

  it('tells a file from a screen', () => {
    expect(isAssetPath('/assets/x')).toBe(true);
    expect(isAssetPath('/favicon.ico?v=2')).toBe(true);
    expect(isAssetPath('/bill/bill_01abc/buyer/buy_01def')).toBe(false);
    expect(isAssetPath('/leads?zip=75201.5')).toBe(false);
  });
});
