import { describe, expect, it } from 'vitest';
import { jobId, notifyJobSchema } from './notify';

/** The notify job's payload is checked when a worker takes it (the dispatcher's own jobs pass in notify.test.ts). */
describe('the notify job payload', () => {
  const job = {
    matchId: 'mat_1',
    channel: 'webhook' as const,
    target: 'https://crm.example/x',
    targets: 2,
    step: 0,
    chain: '',
  };

  it('takes a job as the dispatcher writes it, unchanged, so its job id stays the same', () => {
    const parsed = notifyJobSchema.parse(job);
    expect(parsed).toEqual(job);
    expect(jobId(parsed)).toBe(jobId(job));
  });

  it('refuses a job of an unknown channel, a negative step or no match, naming the field', () => {
    for (const [field, value] of [
      ['channel', 'fax'],
      ['step', -1],
      ['matchId', ''],
      ['targets', 0],
    ] as const) {
      const result = notifyJobSchema.safeParse({ ...job, [field]: value });
      expect(result.success, field).toBe(false);
      expect(result.error?.issues[0]?.path, field).toEqual([field]);
    }
  });
});
