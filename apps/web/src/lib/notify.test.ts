import { describe, expect, it } from 'vitest';
import { savedMessage } from './notify';

describe('savedMessage', () => {
  it("says the spec's '{name} updated successfully' after an update", () => {
    expect(savedMessage('Summit Roofing Co.', false)).toBe('Summit Roofing Co. updated successfully');
  });

  it('says created after a create', () => {
    expect(savedMessage('Roofing - North Texas', true)).toBe('Roofing - North Texas created successfully');
  });
});
