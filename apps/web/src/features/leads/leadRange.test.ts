import { describe, expect, it } from 'vitest';
import { jsonViewOf } from '../../components/JsonViewer';
import { safeHref } from './leadFormat';
import { leadExportUrl, leadListRequest, leadRangeOf, todayInLeadsZone } from './leadRange';

describe('the leads lists’ URL and the API', () => {
  it('reads an absent or unknown dateq as today', () => {
    expect(leadRangeOf({})).toEqual({ dateq: 'today' });
    expect(leadRangeOf({ dateq: 'yesterday' })).toEqual({ dateq: 'today' });
    expect(leadRangeOf({ dateq: 'mtd', dateRangeStart: '2026-01-01' })).toEqual({ dateq: 'mtd' });
  });

  it('puts a custom range in begin and end, in order, one date meaning one day', () => {
    expect(leadRangeOf({ dateq: 'range', dateRangeStart: '2026-03-01', dateRangeEnd: '2026-03-31' })).toEqual({
      dateq: 'range',
      begin: '2026-03-01',
      end: '2026-03-31',
    });
    expect(leadRangeOf({ dateq: 'range', dateRangeStart: '2026-03-31', dateRangeEnd: '2026-03-01' })).toEqual({
      dateq: 'range',
      begin: '2026-03-01',
      end: '2026-03-31',
    });
    expect(leadRangeOf({ dateq: 'range', dateRangeEnd: '2026-03-05' })).toEqual({
      dateq: 'range',
      begin: '2026-03-05',
      end: '2026-03-05',
    });
    expect(leadRangeOf({ dateq: 'range', dateRangeStart: '03/01/2026' })).toEqual({ dateq: 'today' });
  });

  it('maps the list call to /api/lead/date/{dateq} with the filters, page and sort', () => {
    // The filters, the page and the sort go on as they are; the range becomes the path and begin/end.
    const passedOn = { name: 'ann', buyer: 'none', page: 2, pageSize: 15, sort: 'date', order: 'desc' };
    expect(
      leadListRequest({
        path: '/api/lead/date',
        query: {
          dateq: 'range',
          dateRangeStart: '2026-03-01',
          dateRangeEnd: '2026-03-02',
          ...passedOn,
        },
      }),
    ).toEqual({
      path: '/api/lead/date/range',
      query: {
        ...passedOn,
        begin: '2026-03-01',
        end: '2026-03-02',
      },
    });
  });

  it('exports with the same range, filters and sort', () => {
    const params = new URLSearchParams('dateq=ytd&name=ann&zip=10001&page=3');
    expect(leadExportUrl(params, { column: 'date', order: 'desc' })).toBe(
      '/api/lead/date/ytd/export.csv?name=ann&zip=10001&sort=date&order=desc',
    );
  });

  it('passes several field filters on as the API takes them: the parameter repeated', () => {
    const params = new URLSearchParams('service=solar&field=roof_shade%3Anone&field=credit_rating%3Agood');
    expect(leadExportUrl(params, { column: 'date', order: 'desc' })).toBe(
      '/api/lead/date/today/export.csv?service=solar&field=roof_shade%3Anone&field=credit_rating%3Agood&sort=date&order=desc',
    );
    const one = new URLSearchParams('field=roof_shade%3Anone');
    expect(leadExportUrl(one, { column: 'date', order: 'desc' })).toBe(
      '/api/lead/date/today/export.csv?field=roof_shade%3Anone&sort=date&order=desc',
    );
  });

  it('counts today in New York', () => {
    expect(todayInLeadsZone(new Date('2026-03-02T03:00:00Z'))).toBe('2026-03-01');
    expect(todayInLeadsZone(new Date('2026-03-02T06:00:00Z'))).toBe('2026-03-02');
  });
});

describe('what a source sent stays inert', () => {
  it('links only http and https URLs', () => {
    expect(safeHref('https://cert.trustedform.com/abc')).toBe('https://cert.trustedform.com/abc');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<b>x</b>')).toBeUndefined();
    expect(safeHref('not a url')).toBeUndefined();
  });

  it('pretty-prints JSON and says when a text is not JSON', () => {
    expect(jsonViewOf({ a: 1 })).toEqual({ ok: true, text: '{\n  "a": 1\n}' });
    expect(jsonViewOf('{"a":1}')).toEqual({ ok: true, text: '{\n  "a": 1\n}' });
    expect(jsonViewOf('{oops')).toEqual({ ok: false, raw: '{oops' });
  });
});
