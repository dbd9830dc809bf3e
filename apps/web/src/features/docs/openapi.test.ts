import { describe, expect, it } from 'vitest';
import { documentServices } from './openapi';

describe('documentServices', () => {
  it("lists the document's x-services in order", () => {
    expect(documentServices({ 'x-services': ['hvac', 'plumbing', 'roofing'] })).toEqual([
      'hvac',
      'plumbing',
      'roofing',
    ]);
  });

  it('keeps each name once and drops blanks and non-names', () => {
    expect(documentServices({ 'x-services': ['solar', ' solar ', '', 7, null, 'windows'] })).toEqual([
      'solar',
      'windows',
    ]);
  });

  it('gives none without a list (an older document, or none loaded yet)', () => {
    expect(documentServices(undefined)).toEqual([]);
    expect(documentServices({})).toEqual([]);
    expect(documentServices({ 'x-services': 'hvac' })).toEqual([]);
  });
});
