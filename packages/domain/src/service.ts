import { z } from 'zod';

/**
 * GET /api/services/labels (issue 27 item 12): each service's key, as the API and the CSV take it
 * (`bath_remodel`), and its label, as every screen shows it ("Bath Remodel").
 */
export const serviceLabelSchema = z.object({ name: z.string(), label: z.string() });
export type ServiceLabel = z.infer<typeof serviceLabelSchema>;
export const serviceLabelsSchema = z.array(serviceLabelSchema);

/**
 * A label for a service key the exchange's list does not hold (a lead's service from before it was
 * renamed, or while the list loads): its words capitalised, a short single word in capitals (`hvac`).
 */
export function fallbackServiceLabel(name: string): string {
  if (name.length <= 4 && !/[_\s-]/.test(name)) return name.toUpperCase();
  return name
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join(' ');
}
