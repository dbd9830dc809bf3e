import { randomInt } from 'node:crypto';

const FIRST = ['Avery', 'Jordan', 'Morgan', 'Riley', 'Casey', 'Taylor', 'Jamie', 'Quinn'];
const LAST = ['Nguyen', 'Garcia', 'Smith', 'Johnson', 'Patel', 'Brown', 'Lopez', 'Kim'];

/** A made-up consumer for simulated leads: a valid, random US phone and email. */
export function simulatedContact() {
  const first = FIRST[randomInt(FIRST.length)] as string;
  const last = LAST[randomInt(LAST.length)] as string;
  const phone = `${randomInt(2, 10)}${randomInt(0, 10)}${randomInt(0, 10)}${randomInt(2, 10)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  return {
    name: `${first} ${last}`,
    phone,
    email: `${first}.${last}.${randomInt(1_000_000)}@example.com`.toLowerCase(),
    tcpa_consent: true,
    homeowner: true,
  };
}
