import type { ServiceField } from '@leadex/domain';
import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { serviceFields, services } from '../../db/schema';
import { serviceFieldsOf } from '../../distribution/index';

/** The services' own fields (issue 33): read whole, written whole per service. */
export const serviceFieldsRepo = {
  async serviceExists(db: Db | Tx, service: string): Promise<boolean> {
    const rows = await db.select({ name: services.name }).from(services).where(eq(services.name, service));
    return rows.length > 0;
  },

  /** One service's fields, in their order (removed ones included). */
  async ofService(db: Db | Tx, service: string): Promise<ServiceField[]> {
    const rows = await db
      .select()
      .from(serviceFields)
      .where(eq(serviceFields.service, service))
      .orderBy(asc(serviceFields.position), asc(serviceFields.key));
    return serviceFieldsOf(rows).get(service) ?? [];
  },

  /** Every service (those without fields too), by key, each with its fields in their order. */
  async all(db: Db | Tx): Promise<{ service: string; fields: ServiceField[] }[]> {
    const [serviceRows, fieldRows] = await Promise.all([
      db.select({ name: services.name }).from(services).orderBy(asc(services.name)),
      db
        .select()
        .from(serviceFields)
        .orderBy(asc(serviceFields.service), asc(serviceFields.position), asc(serviceFields.key)),
    ]);
    const byService = serviceFieldsOf(fieldRows);
    return serviceRows.map((s) => ({ service: s.name, fields: byService.get(s.name) ?? [] }));
  },

  /** Replaces a service's fields with `fields`, in this order. */
  async replace(tx: Tx, service: string, fields: readonly ServiceField[], now: Date): Promise<void> {
    const existing = await tx
      .select({ key: serviceFields.key, createdAt: serviceFields.createdAt })
      .from(serviceFields)
      .where(eq(serviceFields.service, service));
    const created = new Map(existing.map((r) => [r.key, r.createdAt]));
    await tx.delete(serviceFields).where(eq(serviceFields.service, service));
    if (fields.length === 0) return;
    await tx.insert(serviceFields).values(
      fields.map((f, position) => ({
        service,
        key: f.key,
        position,
        label: f.label,
        type: f.type,
        options: f.options,
        required: f.required,
        stage: f.stage,
        personal: f.personal,
        aliases: f.aliases,
        help: f.help,
        removed: f.removed,
        createdAt: created.get(f.key) ?? now,
        updatedAt: now,
      })),
    );
  },
};
