import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { systemRepo } from './system.repo';

/** What a load balancer or an orchestrator asks a process (docs/operations.md "Health checks"). */
export function createSystemService({ db, clock }: { db: Db; clock: Clock }) {
  const answer = () => ({ ok: true as const, ts: Math.floor(clock.now().getTime() / 1000) });
  return {
    /**
     * Readiness: the database answered. Its failure is the error handler's 503 with Retry-After
     * (bounded by the pool's connect and statement timeouts), so a balancer stops sending traffic here.
     */
    async ready() {
      await systemRepo.ping(db);
      return answer();
    },
    /** Liveness: the process answers; the database is not touched, so an outage never gets it restarted. */
    live: answer,
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
