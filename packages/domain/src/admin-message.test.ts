import { describe, expect, it } from 'vitest';
import { messageLink } from './admin-message';

describe('messageLink', () => {
  it('answers a path of this app', () => {
    expect(messageLink({ link: '/lead/lead_1' })).toBe('/lead/lead_1');
  });

  it('never answers another site or a script, nor anything that is not a link', () => {
    for (const link of ['//evil.example/x', 'https://evil.example', 'javascript:alert(1)', 'lead/1', 42, null])
      expect(messageLink({ link })).toBeUndefined();
    expect(messageLink(undefined)).toBeUndefined();
    expect(messageLink('text')).toBeUndefined();
  });
});
