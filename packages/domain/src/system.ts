import { z } from 'zod';

/**
 * GET /api/health (readiness: the database answered) and GET /api/live (liveness: the process
 * answers, the database untouched): `ts` is the exchange's clock, in Unix seconds.
 */
export const healthSchema = z.object({ ok: z.literal(true), ts: z.number().int() });
export type Health = z.infer<typeof healthSchema>;
