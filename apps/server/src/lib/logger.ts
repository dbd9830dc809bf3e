import { pino } from 'pino';
import type { Config } from '../config';

/**
 * The one logger of a process: Fastify logs requests through it and every service that must report
 * something nobody is waiting for (a failed background reload, a job's error) is handed it.
 */
export type Logger = pino.Logger;

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({ level: config.LOG_LEVEL });
}
