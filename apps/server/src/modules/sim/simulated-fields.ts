import { randomInt } from 'node:crypto';
import type { ServiceField } from '@leadex/domain';

/** A whole number in [min, max), from `next` (crypto's randomInt by default; the seed passes a repeatable one). */
export type Draw = (min: number, max: number) => number;

const INSURERS = ['State Farm', 'GEICO', 'Progressive', 'Allstate', 'USAA', 'Liberty Mutual', 'Farmers', 'None'];

/** Realistic values for the demo services' fields (issue 33 item 6), by key; other fields get one of their type. */
const BY_KEY: Record<string, (draw: Draw) => unknown> = {
  electric_bill: (draw) => `$${draw(60, 420)}.${String(draw(0, 100)).padStart(2, '0')}`,
  roof_age: (draw) => draw(1, 31),
  age: (draw) => draw(18, 86),
  vehicles: (draw) => draw(1, 5),
  current_insurer: (draw) => INSURERS[draw(0, INSURERS.length)],
};

/** A value a source would send for a field of this type. */
function sampleOf(field: ServiceField, draw: Draw): unknown {
  const known = BY_KEY[field.key];
  if (known) return known(draw);
  switch (field.type) {
    case 'text':
      return `Sample ${draw(1, 1000)}`;
    case 'choice':
      return field.options[draw(0, field.options.length)];
    case 'number':
      return draw(0, 100);
    case 'money':
      return (draw(5_000, 200_000) / 100).toFixed(2);
    case 'boolean':
      return draw(0, 4) === 0 ? 'Yes' : 'No';
    case 'date': {
      const day = new Date(Date.UTC(2027, 0, 1) + draw(0, 365) * 86_400_000);
      return day.toISOString().slice(0, 10);
    }
    case 'phone':
      return `512${draw(200, 1000)}${String(draw(0, 10_000)).padStart(4, '0')}`;
    case 'email':
      return `sim.${draw(1, 1_000_000)}@example.com`;
    case 'zip':
      return String(draw(10_000, 99_999));
  }
}

/**
 * The values of a service's fields a simulated source sends (issue 33 item 6): at the ping its ping-stage
 * fields that are not personal, at the post the rest, in a direct lead all of them; an optional field is
 * left out now and then, as real traffic does.
 */
export function simulatedFields(
  fields: readonly ServiceField[],
  stage: 'ping' | 'post' | 'lead',
  draw: Draw = randomInt,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.removed) continue;
    const atPing = f.stage === 'ping' && !f.personal;
    if ((stage === 'ping' && !atPing) || (stage === 'post' && atPing)) continue;
    if (!f.required && draw(0, 10) === 0) continue;
    out[f.key] = sampleOf(f, draw);
  }
  return out;
}

/** A repeatable draw from a seed (mulberry32): the demo's leads are the same on every fresh start. */
export function seededDraw(seed: number): Draw {
  let state = seed >>> 0;
  return (min, max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    const unit = ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
    return min + Math.floor(unit * (max - min));
  };
}
