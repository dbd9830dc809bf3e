import { createServer, validateHeaderName, validateHeaderValue } from 'node:http';
import type { AddressInfo } from 'node:net';
import { headerNameProblem, headerValueProblem } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { useAnsweringServer } from '../../test/receivers';
import {
  blockedRange,
  type Dialer,
  headerProblem,
  OutboundError,
  type OutboundRequest,
  outboundRequest,
  type Resolver,
} from './outbound-http';

/** A local receiver; each test sets how it answers. */
const receiver = useAnsweringServer('{"ok":true}');

/** A resolver answering fixed addresses per name. */
const resolverOf =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) =>
    (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('blockedRange: every address that is not public unicast is refused', () => {
  // An IPv4-mapped IPv6 address is judged as its IPv4 address.
  it.each([
    ['IPv4', '127.0.0.1', 'loopback'],
    ['IPv4', '127.255.0.9', 'loopback'],
    ['IPv4', '10.0.0.1', 'private'],
    ['IPv4', '172.16.5.4', 'private'],
    ['IPv4', '172.31.255.255', 'private'],
    ['IPv4', '192.168.1.1', 'private'],
    ['IPv4', '169.254.169.254', 'linkLocal'],
    ['IPv4', '169.254.0.1', 'linkLocal'],
    ['IPv4', '100.64.0.1', 'carrierGradeNat'],
    ['IPv4', '100.127.255.254', 'carrierGradeNat'],
    ['IPv4', '0.0.0.0', 'unspecified'],
    ['IPv4', '224.0.0.1', 'multicast'],
    ['IPv4', '239.255.255.250', 'multicast'],
    ['IPv4', '255.255.255.255', 'broadcast'],
    ['IPv4', '192.0.2.1', 'reserved'],
    ['IPv6', '::1', 'loopback'],
    ['IPv6', '::', 'unspecified'],
    ['IPv6', 'fe80::1', 'linkLocal'],
    ['IPv6', 'fe80::1%eth0', 'linkLocal'],
    ['IPv6', 'fc00::1', 'uniqueLocal'],
    ['IPv6', 'fd00:ec2::254', 'uniqueLocal'],
    ['IPv6', 'ff02::1', 'multicast'],
    ['IPv6', '64:ff9b::a00:1', 'rfc6052'],
    ['IPv6', '2002:a00:1::1', '6to4'],
    ['IPv6', '[::1]', 'loopback'],
    ['IPv4-mapped IPv6', '::ffff:127.0.0.1', 'loopback'],
    ['IPv4-mapped IPv6', '::ffff:10.0.0.1', 'private'],
    ['IPv4-mapped IPv6', '::ffff:192.168.0.10', 'private'],
    ['IPv4-mapped IPv6', '::ffff:169.254.169.254', 'linkLocal'],
    ['IPv4-mapped IPv6', '::ffff:100.64.1.1', 'carrierGradeNat'],
    ['IPv4-mapped IPv6', '::ffff:7f00:1', 'loopback'],
    ['IPv4-mapped IPv6', '0:0:0:0:0:ffff:7f00:1', 'loopback'],
    // Issue 29 item 9: every other IPv6 spelling of an IPv4 or local address.
    ['IPv4-compatible IPv6', '::127.0.0.1', 'loopback'],
    ['IPv4-compatible IPv6 (as a URL writes it)', '::7f00:1', 'ipv4Compatible'],
    ['IPv4-compatible IPv6', '::a00:1', 'ipv4Compatible'],
    ['IPv4-compatible IPv6', '::a9fe:a9fe', 'ipv4Compatible'],
    ['IPv4-compatible IPv6', '0:0:0:0:0:0:7f00:1', 'ipv4Compatible'],
    ['NAT64 IPv6', '64:ff9b::7f00:1', 'rfc6052'],
    ['NAT64 IPv6', '64:ff9b::169.254.169.254', 'rfc6052'],
    ['local NAT64 IPv6', '64:ff9b:1::a00:1', 'rfc6052'],
    ['SIIT IPv6', '::ffff:0:7f00:1', 'rfc6145'],
    ['6to4 IPv6', '2002:7f00:1::1', '6to4'],
    ['Teredo IPv6', '2001::1', 'teredo'],
    ['link-local IPv6 with a zone', 'fe80::1%25eth0', 'linkLocal'],
    ['link-local IPv6 with a zone', '[fe80::a9fe:a9fe%eth0]', 'linkLocal'],
    ['site-local IPv6', 'fec0::1', 'deprecatedSiteLocal'],
    ['documentation IPv6', '2001:db8::1', 'reserved'],
    ['unassigned IPv6', '4000::1', 'notGlobalUnicast'],
    ['unassigned IPv6', '::2:7f00:1', 'notGlobalUnicast'],
  ])('%s %s is %s', (_kind, address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'public %s is allowed',
    (address) => {
      expect(blockedRange(address)).toBeNull();
    },
  );

  it('text that is not an address is refused', () => {
    expect(blockedRange('not-an-ip')).toBe('invalid');
  });
});

describe('outboundRequest: the SSRF guard', () => {
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${receiver.port}/`],
    ['[::1]', () => `http://[::1]:${receiver.port}/`],
    ['10.x', () => 'http://10.1.2.3/leads'],
    ['the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT', () => 'http://100.64.0.1/'],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${receiver.port}/`],
    ['0.0.0.0', () => `http://0.0.0.0:${receiver.port}/`],
    ['an IPv4-compatible IPv6 loopback', () => `http://[::127.0.0.1]:${receiver.port}/`],
    ['an IPv4-compatible IPv6 loopback in hex', () => `http://[::7f00:1]:${receiver.port}/`],
    ['a NAT64 loopback', () => `http://[64:ff9b::127.0.0.1]:${receiver.port}/`],
    ['an SIIT loopback', () => `http://[::ffff:0:127.0.0.1]:${receiver.port}/`],
    ['the unspecified IPv6 address', () => `http://[::]:${receiver.port}/`],
  ])('refuses a literal %s target without connecting', async (_name, url) => {
    const error = await refusal(outboundRequest({ url: url(), method: 'POST', body: '{}' }));
    expect(error.code).toBe('blocked');
    expect(receiver.hits).toHaveLength(0);
  });

  it('refuses localhost and a name resolving to a private address', async () => {
    const resolve = resolverOf({
      'crm.example.test': ['10.0.0.7'],
      'both.example.test': ['93.184.216.34', '::1'],
      'compat.example.test': ['::7f00:1'],
      'nat64.example.test': ['64:ff9b::a9fe:a9fe'],
    });
    for (const url of [
      `http://localhost:${receiver.port}/`,
      'http://crm.example.test/',
      'http://both.example.test/',
      'http://compat.example.test/',
      'http://nat64.example.test/',
    ]) {
      const error = await refusal(
        outboundRequest({ url, method: 'POST', resolve: url.includes('localhost') ? undefined : resolve }),
      );
      expect(error.code).toBe('blocked');
      expect(error.message).toMatch(/only public addresses are allowed/);
    }
    expect(receiver.hits).toHaveLength(0);
  });

  it('resolves once and connects to the address it checked: a rebinding name never reaches loopback', async () => {
    // The code under test gets the public answer first; any later lookup of the name answers
    // loopback, where this file's receiver listens. A guard that checks one answer and then
    // resolves again to connect would reach it.
    const lookups: string[] = [];
    const rebinding: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: lookups.length === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    // The test's "internet": the public address is carried to the local receiver; every address
    // the socket is sent to is recorded, and loopback passes through as it would on a real host.
    const dials: string[] = [];
    const dial: Dialer = (checked) => {
      dials.push(checked.address);
      return checked.address === '93.184.216.34' ? { address: '127.0.0.1', family: 4 } : checked;
    };

    const res = await outboundRequest({
      url: `http://rebind.example.test:${receiver.port}/in`,
      method: 'POST',
      resolve: rebinding,
      dial,
    });
    expect(res.status).toBe(200);
    expect(lookups).toEqual(['rebind.example.test']);
    expect(dials).toEqual(['93.184.216.34']);
    expect(receiver.hits).toHaveLength(1);
    expect(receiver.hits[0]?.headers.host).toBe(`rebind.example.test:${receiver.port}`);
  });

  it('refuses a name whose connect-time answer is loopback, without connecting', async () => {
    const dials: string[] = [];
    const error = await refusal(
      outboundRequest({
        url: `http://rebind.example.test:${receiver.port}/`,
        method: 'POST',
        resolve: resolverOf({ 'rebind.example.test': ['127.0.0.1'] }),
        dial: (checked) => {
          dials.push(checked.address);
          return checked;
        },
      }),
    );
    expect(error.code).toBe('blocked');
    expect(error.message).toContain('127.0.0.1');
    expect(dials).toEqual([]);
    expect(receiver.hits).toHaveLength(0);
  });

  it('connects to the address the connect-time lookup answered', async () => {
    const resolve = resolverOf({ 'buyer.example.test': ['127.0.0.1'] });
    const res = await outboundRequest({
      url: `http://buyer.example.test:${receiver.port}/in`,
      method: 'POST',
      resolve,
      allowPrivate: true,
    });
    expect(res.status).toBe(200);
    expect(receiver.hits[0]?.headers.host).toBe(`buyer.example.test:${receiver.port}`);
  });

  it('reaches private targets when ALLOW_PRIVATE_DELIVERY_TARGETS is on', async () => {
    const res = await outboundRequest({
      url: `http://127.0.0.1:${receiver.port}/leads?x=1`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k1' },
      body: '{"phone":"5125550100"}',
      allowPrivate: true,
    });
    expect(res).toMatchObject({ status: 200, body: '{"ok":true}', truncated: false });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(receiver.hits[0]).toMatchObject({ method: 'PUT', url: '/leads?x=1', body: '{"phone":"5125550100"}' });
    expect(receiver.hits[0]?.headers['x-api-key']).toBe('k1');
  });

  it('refuses URLs that are not http(s) or carry credentials', async () => {
    expect((await refusal(outboundRequest({ url: 'file:///etc/passwd', method: 'GET' }))).code).toBe('invalid_url');
    expect((await refusal(outboundRequest({ url: 'http://u:p@example.com/', method: 'GET' }))).code).toBe(
      'invalid_url',
    );
    expect((await refusal(outboundRequest({ url: 'nonsense', method: 'GET' }))).code).toBe('invalid_url');
  });
});

describe('outboundRequest: HTTP behaviour', () => {
  it('does not follow redirects: a 3xx is the answer', async () => {
    receiver.answer = (res) => res.writeHead(302, { location: `http://127.0.0.1:${receiver.port}/elsewhere` }).end();
    const res = await outboundRequest({
      url: `http://127.0.0.1:${receiver.port}/start`,
      method: 'POST',
      allowPrivate: true,
    });
    expect(res.status).toBe(302);
    expect(receiver.hits.map((h) => h.url)).toEqual(['/start']);
  });

  it('gives up after the timeout', async () => {
    receiver.answer = () => {}; // never answers
    const started = Date.now();
    const error = await refusal(
      outboundRequest({
        url: `http://127.0.0.1:${receiver.port}/slow`,
        method: 'POST',
        allowPrivate: true,
        timeoutMs: 200,
      }),
    );
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps at most maxResponseBytes of a long answer', async () => {
    receiver.answer = (res) => res.writeHead(200).end('x'.repeat(100_000));
    const res = await outboundRequest({
      url: `http://127.0.0.1:${receiver.port}/big`,
      method: 'POST',
      allowPrivate: true,
      maxResponseBytes: 1000,
    });
    expect(res.body).toHaveLength(1000);
    expect(res.truncated).toBe(true);
  });

  it('reports a connection the peer drops as a network error', async () => {
    // A peer that stays bound and listening but resets every connection: nothing else can take its
    // port while the test runs, unlike a port closed and hoped to stay free.
    const dropping = createServer();
    dropping.on('connection', (socket) => socket.resetAndDestroy());
    await new Promise<void>((done) => dropping.listen(0, '127.0.0.1', done));
    try {
      const dropPort = (dropping.address() as AddressInfo).port;
      const error = await refusal(
        outboundRequest({ url: `http://127.0.0.1:${dropPort}/`, method: 'POST', allowPrivate: true }),
      );
      expect(error.code).toBe('network');
      expect(error.message).toMatch(/ECONNRESET/);
    } finally {
      await new Promise<void>((done) => dropping.close(() => done()));
    }
  });
});

describe('kept connections (reuseConnection: the pings)', () => {
  /** A server that counts its connections and lets a test decide, per request, to drop it unanswered. */
  async function countingServer(drop: (requestOnSocket: number) => boolean) {
    let connections = 0;
    let requests = 0;
    const server = createServer((req, res) => {
      requests += 1;
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      req.resume();
      req.on('end', () => {
        if (drop(socket.served ?? 1)) socket.destroy();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return {
      port: (server.address() as AddressInfo).port,
      counts: () => ({ connections, requests }),
      close: () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    };
  }

  /** A kept-connection ping to `host` on the test server, reached through `network`. */
  const keptPing =
    (host: string, port: number, network: Pick<OutboundRequest, 'resolve' | 'dial' | 'allowPrivate'>) => () =>
      outboundRequest({
        url: `http://${host}:${port}/ping`,
        method: 'POST',
        body: '{}',
        reuseConnection: true,
        ...network,
      });

  it('carries the next request to the same host on the connection it kept, checked once when it connected', async () => {
    const server = await countingServer(() => false);
    const lookups: string[] = [];
    const resolve: Resolver = async (hostname) => {
      lookups.push(hostname);
      return [{ address: '93.184.216.34', family: 4 }];
    };
    const dial: Dialer = () => ({ address: '127.0.0.1', family: 4 });
    try {
      const send = keptPing('bids.example.test', server.port, { resolve, dial });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect(server.counts()).toEqual({ connections: 1, requests: 2 });
      expect(lookups).toEqual(['bids.example.test']);
      // Without reuseConnection every request connects (and is checked) anew.
      await outboundRequest({ url: `http://bids.example.test:${server.port}/post`, method: 'POST', resolve, dial });
      expect(server.counts()).toEqual({ connections: 2, requests: 3 });
    } finally {
      await server.close();
    }
  });

  it('refuses a kept-connection request to a name answering loopback, without connecting', async () => {
    const server = await countingServer(() => false);
    try {
      const error = await refusal(
        outboundRequest({
          url: `http://rebind.example.test:${server.port}/`,
          method: 'POST',
          resolve: resolverOf({ 'rebind.example.test': ['127.0.0.1'] }),
          reuseConnection: true,
        }),
      );
      expect(error.code).toBe('blocked');
      expect(server.counts()).toEqual({ connections: 0, requests: 0 });
    } finally {
      await server.close();
    }
  });

  it('sends a request again, once, on a new connection when the kept one is closed under it', async () => {
    // The second request on a connection is dropped unanswered, as a server closing an idle connection
    // just as a request arrives would.
    const server = await countingServer((onSocket) => onSocket === 2);
    const resolve = resolverOf({ 'kept.example.test': ['127.0.0.1'] });
    try {
      const send = keptPing('kept.example.test', server.port, { resolve, allowPrivate: true });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect(server.counts()).toEqual({ connections: 2, requests: 3 });
    } finally {
      await server.close();
    }
  });
});

describe('headers Node will not send', () => {
  const sends = (check: () => void) => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  };
  /** Every character of the first 1,024 code points, and some past them (€, an emoji, a lone surrogate, a line separator). */
  const characters = [
    ...Array.from({ length: 0x400 }, (_, code) => String.fromCharCode(code)),
    ...['€', '👍', '\ud800', '\u2028', '\ufeff'],
  ];

  // The web form and the API's schema show the rule on the row: they must refuse exactly what Node refuses.
  it("the shared schema's rule is Node's own, character by character", () => {
    const valueDisagreements = characters.filter(
      (c) => sends(() => validateHeaderValue('X-Test', `a${c}b`)) !== (headerValueProblem('X-Test', `a${c}b`) === null),
    );
    expect(valueDisagreements).toEqual([]);
    const nameDisagreements = characters.filter(
      (c) => sends(() => validateHeaderName(`X${c}`)) !== (headerNameProblem(`X${c}`) === null),
    );
    expect(nameDisagreements).toEqual([]);
  });

  it('names the header and the character, whatever the stored value holds', () => {
    expect(headerProblem('X-Foo', '10 €')).toEqual({
      part: 'value',
      message: "Header X-Foo's value contains a character that cannot be sent (€)",
    });
    expect(headerProblem('X Foo', 'v', 'Ping header')).toEqual({
      part: 'header',
      message: 'Ping header name contains a character that cannot be sent (a space)',
    });
    expect(headerProblem('X-Foo', undefined)?.part).toBe('value');
    expect(headerProblem('X-Foo', 'fine\tcafé')).toBeNull();
  });

  it("answers a header value Node refuses as this call's failure, without connecting", async () => {
    for (const value of ['€', 'a\u0001', 'a\u007f']) {
      const error = await refusal(
        outboundRequest({
          url: `http://127.0.0.1:${receiver.port}/never`,
          method: 'POST',
          allowPrivate: true,
          headers: { 'X-Token': value },
          body: '{}',
        }),
      );
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain("Header X-Token's value contains a character that cannot be sent");
    }
    expect(receiver.hits).toEqual([]);
  });
});
