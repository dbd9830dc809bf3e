import type { LeadDetail } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { toLeadFormValues, toLeadUpdate } from './leadForm';

const lead = (flags: Partial<Pick<LeadDetail, 'homeowner' | 'tcpa_consent'>>): LeadDetail => ({
  _id: 'lead_1',
  zip: '75201',
  service: 'roofing',
  tags: [],
  ping_id: 'no_ping',
  test: false,
  ts: 0,
  ...flags,
});

describe('the admin lead form’s flags (issue 32: unknown is not No)', () => {
  it('holds an unsent flag as empty (shown Unknown), a sent one as yes or no', () => {
    expect(toLeadFormValues(lead({}))).toMatchObject({ homeowner: '', tcpa_consent: '' });
    expect(toLeadFormValues(lead({ homeowner: false, tcpa_consent: true }))).toMatchObject({
      homeowner: 'no',
      tcpa_consent: 'yes',
    });
  });

  it('sends a flag the admin set, and never turns an unknown one into No', () => {
    expect(toLeadUpdate({ homeowner: 'no', tcpa_consent: 'yes' })).toEqual({ homeowner: false, tcpa_consent: true });
    expect(toLeadUpdate({ homeowner: '', tcpa_consent: '' })).toEqual({});
  });
});
