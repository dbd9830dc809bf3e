import {
  SERVICE_FIELD_TYPE_LABELS,
  type ServiceField,
  type ServiceFieldList,
  type ServiceFieldsAnswer,
} from '@leadex/domain';
import type { Db } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { serviceFieldsRepo } from './service-fields.repo';

/**
 * The fields each service's leads carry beyond the fixed ones (issue 33 item 1). Every portal user reads
 * them (a buyer's campaign filters and lead screens, a source's docs); only an admin defines them (the
 * route's guard). A change reloads the engine, which the source API and eligibility read them from.
 */
export function createServiceFieldsService({
  db,
  clock,
  engine,
}: {
  db: Db;
  clock: Clock;
  engine: Pick<Engine, 'change'>;
}) {
  async function existing(service: string): Promise<ServiceField[]> {
    if (!(await serviceFieldsRepo.serviceExists(db, service))) throw AppError.notFound('Service');
    return serviceFieldsRepo.ofService(db, service);
  }

  return {
    /** Every service with its fields (removed ones included, so old leads still show them). */
    all: (): Promise<ServiceFieldsAnswer[]> => serviceFieldsRepo.all(db),

    async ofService(service: string): Promise<ServiceFieldsAnswer> {
      return { service, fields: await existing(service) };
    },

    /**
     * Replaces a service's fields with the list, in its order. A field left out is kept, removed: old
     * leads still show it with its label. A field's type never changes (its stored values were read as
     * that type): a field of another type takes a new key.
     */
    async replace(service: string, input: ServiceFieldList): Promise<ServiceFieldsAnswer> {
      const before = await existing(service);
      const errors: Record<string, string> = {};
      input.fields.forEach((f, i) => {
        const old = before.find((b) => b.key === f.key);
        if (old && old.type !== f.type)
          errors[`fields.${i}.type`] =
            `${f.label}: its type cannot change from ${SERVICE_FIELD_TYPE_LABELS[old.type]} to ${SERVICE_FIELD_TYPE_LABELS[f.type]} (leads store it as ${SERVICE_FIELD_TYPE_LABELS[old.type]}); add a field with a new key instead`;
      });
      const sent = new Set(input.fields.map((f) => f.key));
      const kept = before.filter((b) => !sent.has(b.key)).map((b) => ({ ...b, removed: true }));
      const taken = new Map<string, string>();
      for (const f of input.fields) for (const name of [f.key, ...f.aliases]) taken.set(name.toLowerCase(), f.key);
      kept.forEach((k) => {
        // A removed field's aliases give way to a live field's names; its key is never reused.
        k.aliases = k.aliases.filter((a) => !taken.has(a.toLowerCase()));
        if (taken.has(k.key)) errors.fields = `“${k.key}” is the key of a removed field: choose another alias`;
      });
      if (Object.keys(errors).length > 0)
        throw new AppError('bad_request', Object.values(errors)[0] ?? 'Invalid fields', { errors });
      const fields = [...input.fields, ...kept];
      await engine.change('services', (tx) => serviceFieldsRepo.replace(tx, service, fields, clock.now()));
      return { service, fields };
    },
  };
}

export type ServiceFieldsService = ReturnType<typeof createServiceFieldsService>;
