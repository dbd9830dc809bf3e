import { describe, expect, it } from 'vitest';
import { MAX_RECENT_HASHES, RecentSales } from './duplicates';

// Pure unit tests (no database): the bounds of the ping's memory of recent sales (issue 28 item 6).

const AT = new Date('2026-01-15T15:00:00Z');
const later = (ms: number) => new Date(AT.getTime() + ms);
const hash = (i: number) => i.toString(16).padStart(64, '0');

describe('RecentSales', () => {
  it('keeps at most MAX_RECENT_HASHES hashes however many sales it is told of', () => {
    const recent = new RecentSales();
    for (let i = 0; i < MAX_RECENT_HASHES + 1000; i++) recent.add([hash(i)], 'buy_1', later(i));
    expect(recent.size).toBeLessThanOrEqual(MAX_RECENT_HASHES);
    expect(recent.size).toBeGreaterThanOrEqual((MAX_RECENT_HASHES * 3) / 4);
    // The oldest went first; the newest are still known.
    expect(recent.buyersOf([hash(0)], AT)).toEqual(new Set());
    expect(recent.buyersOf([hash(MAX_RECENT_HASHES + 999)], AT)).toEqual(new Set(['buy_1']));
  });

  it('drops the least recently sold hashes first: a hash sold again is kept', () => {
    const recent = new RecentSales(8);
    // Generations of 2 hashes, 4 of them.
    recent.add([hash(1), hash(2)], 'buy_1', later(1));
    recent.add([hash(3), hash(4)], 'buy_1', later(2));
    recent.add([hash(5), hash(6)], 'buy_1', later(3));
    recent.add([hash(1), hash(7)], 'buy_2', later(4));
    recent.add([hash(3), hash(8)], 'buy_1', later(5));
    expect(recent.size).toBeLessThanOrEqual(8);
    expect(recent.buyersOf([hash(2)], AT)).toEqual(new Set());
    expect(recent.buyersOf([hash(1)], AT)).toEqual(new Set(['buy_1', 'buy_2']));
    expect(recent.buyersOf([hash(3)], AT)).toEqual(new Set(['buy_1']));
    expect(recent.buyersOf([hash(8)], AT)).toEqual(new Set(['buy_1']));
  });

  it('expires the hashes whose sales all left the duplicate window', () => {
    const recent = new RecentSales(8);
    recent.add([hash(1), hash(2)], 'buy_1', later(1000));
    recent.add([hash(3), hash(4)], 'buy_1', later(2000));
    recent.add([hash(5)], 'buy_2', later(3000));
    recent.expire(later(2500));
    expect(recent.size).toBe(1);
    expect(recent.buyersOf([hash(5)], later(2500))).toEqual(new Set(['buy_2']));
    expect(recent.buyersOf([hash(1), hash(2), hash(3), hash(4)], AT)).toEqual(new Set());
    recent.expire(later(5000));
    expect(recent.size).toBe(0);
  });

  it('counts one buyer once per hash, at its latest sale', () => {
    const recent = new RecentSales();
    recent.add([hash(1), null], 'buy_1', later(3000));
    recent.add([hash(1)], 'buy_1', later(1000));
    expect(recent.size).toBe(1);
    expect(recent.buyersOf([hash(1)], later(2000))).toEqual(new Set(['buy_1']));
  });
});
