import { describe, expect, it } from 'vitest';
import { curlExample, curlPostExample, pingIdOf, sourceEndpoints, TEST_PING_ZIP } from './endpoints';

describe('sourceEndpoints', () => {
  it('lists ping and post on the exchange’s origin', () => {
    expect(sourceEndpoints('https://leads.example/', false)).toEqual([
      { label: 'Ping', path: '/api/ping', url: 'https://leads.example/api/ping' },
      { label: 'Post', path: '/api/post', url: 'https://leads.example/api/post' },
    ]);
  });

  it('adds the direct lead endpoint only for a source that may post direct', () => {
    const urls = sourceEndpoints('http://127.0.0.1:3000', true).map((e) => e.url);
    expect(urls).toEqual([
      'http://127.0.0.1:3000/api/ping',
      'http://127.0.0.1:3000/api/post',
      'http://127.0.0.1:3000/api/lead',
    ]);
  });
});

describe('curlExample', () => {
  it('pings with the key as a bearer token, the service, ZIP 99999 and test true', () => {
    const curl = curlExample('https://leads.example', 'lx_abc', 'roofing');
    expect(curl).toContain('curl -s https://leads.example/api/ping');
    expect(curl).toContain(`-H 'Authorization: Bearer lx_abc'`);
    expect(curl).toContain(`-d '{"service":"roofing","zip":"${TEST_PING_ZIP}","test":true}'`);
  });

  it('quotes a service holding a single quote so the shell reads it whole', () => {
    expect(curlExample('https://x', 'lx_k', "o'brien")).toContain(`"service":"o'\\''brien"`);
  });
});

describe('curlPostExample', () => {
  it('posts the ping_id with a test consumer, the key as a bearer token', () => {
    const curl = curlPostExample('https://leads.example', 'lx_abc', 'png_123');
    expect(curl).toContain('curl -s https://leads.example/api/post');
    expect(curl).toContain(`-H 'Authorization: Bearer lx_abc'`);
    expect(curl).toContain('"ping_id":"png_123"');
    expect(curl).toContain('"test":true');
  });

  it('carries a new Idempotency-Key each run, never a fixed one a source would copy for every lead (issue 28)', () => {
    const curl = curlPostExample('https://leads.example', 'lx_abc', 'png_123');
    expect(curl).toContain(`-H "Idempotency-Key: $(uuidgen)" \\\n`);
  });
});

describe('pingIdOf', () => {
  it('reads the ping_id of a quote, and nothing of a refusal or of text that is not JSON', () => {
    expect(pingIdOf('{"ok":true,"ping_id":"png_1","price":0}')).toBe('png_1');
    expect(pingIdOf('{"ok":false,"reason":"no_match"}')).toBeUndefined();
    expect(pingIdOf('Bad gateway')).toBeUndefined();
  });
});
