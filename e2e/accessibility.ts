import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';

/**
 * Issue 9, item 8: every screen passes axe-core's WCAG 2.0 and 2.1 A/AA rules. The e2e suite checks
 * each screen it visits without being asked (`checkEveryScreen`, set up by `useBrowser().newPage()`),
 * and tests call `expectAccessible` for states they pass through without acting on them.
 */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * Issue 27: axe-core's best practices beside WCAG (one h1 and one main landmark per screen, headings
 * that do not skip levels, content inside landmarks, named table headers).
 */
export const AXE_TAGS = [...WCAG_TAGS, 'best-practice'];

/** How long a screen may take to settle (no spinner, no running transition) before it is analysed anyway. */
const SETTLE_TIMEOUT = 8_000;
/** Animation frames in a row the screen must stay quiet: Mantine starts a transition a frame after mounting. */
const QUIET_FRAMES = 5;

/**
 * Waits until the screen is at rest: the app has rendered, nothing shows a loader or a busy state, and
 * no finite CSS transition or animation (a modal or toast fading in or out) is running, for a few
 * frames in a row. Infinite animations are the loaders' own and are covered by the first check.
 */
export async function waitForSettled(page: Page): Promise<void> {
  const token = `${Date.now()}-${Math.random()}`;
  await page
    .waitForFunction(
      ({ token, frames }) => {
        const state = window as unknown as { __leadexSettle?: { token: string; quiet: number } };
        if (state.__leadexSettle?.token !== token) state.__leadexSettle = { token, quiet: 0 };
        const rendered = (document.getElementById('root')?.childElementCount ?? 0) > 0;
        const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
        const busy = Array.from(
          document.querySelectorAll(
            '.mantine-Loader-root, .mantine-LoadingOverlay-root, [aria-busy="true"], [data-loading="true"], .mantine-Skeleton-root[data-visible="true"]',
          ),
        ).some(visible);
        const moving = document.getAnimations().some((animation) => {
          if (animation.playState !== 'running') return false;
          const end = animation.effect?.getComputedTiming().endTime;
          return typeof end === 'number' && Number.isFinite(end);
        });
        state.__leadexSettle.quiet = rendered && !busy && !moving ? state.__leadexSettle.quiet + 1 : 0;
        return state.__leadexSettle.quiet >= frames;
      },
      { token, frames: QUIET_FRAMES },
      { polling: 'raf', timeout: SETTLE_TIMEOUT },
    )
    .catch(() => {
      // A screen that never settles is still analysed: a lasting violation is reported either way.
    });
}

/**
 * axe-core's false positives, by rule: its nodes inside these containers are dropped.
 * - `region` (best-practice): a select's or a date field's open dropdown is drawn in a portal at the end
 *   of the body, so it sits outside the landmarks; it belongs to the field that opened it
 *   (aria-controls), which is inside one.
 * - `scrollable-region-focusable`: the combobox pattern (dequelabs/axe-core#4914): a select's options
 *   scroll inside its listbox and are reached with the arrow keys from the input, which keeps the focus
 *   (aria-activedescendant); a listbox may hold no tab stop of its own (aria-required-children).
 */
const FALSE_POSITIVES_WITHIN: Readonly<Record<string, string>> = {
  region: '.mantine-Popover-dropdown',
  'scrollable-region-focusable': '[role="listbox"]',
};

async function withoutFalsePositives(page: Page, violations: Result[]): Promise<Result[]> {
  const kept: Result[] = [];
  for (const violation of violations) {
    const container = FALSE_POSITIVES_WITHIN[violation.id];
    if (container === undefined) {
      kept.push(violation);
      continue;
    }
    const nodes = [];
    for (const node of violation.nodes) {
      const [selector] = node.target;
      const inside =
        typeof selector === 'string' &&
        (await page
          .evaluate(([css, within]) => document.querySelector(css)?.closest(within) != null, [
            selector,
            container,
          ] as const)
          .catch(() => false));
      if (!inside) nodes.push(node);
    }
    if (nodes.length > 0) kept.push({ ...violation, nodes });
  }
  return kept;
}

async function violationsOf(page: Page): Promise<Result[]> {
  await waitForSettled(page);
  // Legacy mode runs axe in the page itself; the default opens a blank page in the test's context.
  const results = await new AxeBuilder({ page })
    // Only what fails: collecting the passes' and the undecided elements' details would double the time.
    // (Before withTags: options() replaces the options withTags writes its tags into.)
    .options({ resultTypes: ['violations'] })
    .withTags(AXE_TAGS)
    .setLegacyMode(true)
    .analyze();
  return withoutFalsePositives(page, results.violations);
}

const key = (violation: Result, target: unknown) => `${violation.id} ${JSON.stringify(target)}`;

/** The violations as a reader wants them: rule, impact, what it means, each element's selector and html. */
export function describeViolations(violations: Result[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => {
          const html = node.html.replace(/\s+/g, ' ');
          const why = node.failureSummary?.split('\n').slice(1).join(' ').trim();
          return `    - ${JSON.stringify(node.target)} ${html.length > 160 ? `${html.slice(0, 157)}...` : html}${why ? `\n      ${why}` : ''}`;
        })
        .join('\n');
      return `  ${violation.id} (${violation.impact}): ${violation.help}\n${nodes}`;
    })
    .join('\n');
}

/**
 * Runs axe-core's WCAG 2 A/AA rules and its best practices on the page's current screen, once it has settled, and fails with
 * the violations. A violation must show in two analyses in a row: one seen only once was a screen caught
 * between two states, whatever waiting for it to settle could tell.
 */
export async function expectAccessible(page: Page, screen = describeScreen(page)): Promise<void> {
  const first = await violationsOf(page);
  if (first.length === 0) return;
  const seen = new Set(first.flatMap((violation) => violation.nodes.map((node) => key(violation, node.target))));
  const lasting = (await violationsOf(page))
    .map((violation) => ({
      ...violation,
      nodes: violation.nodes.filter((node) => seen.has(key(violation, node.target))),
    }))
    .filter((violation) => violation.nodes.length > 0);
  if (lasting.length === 0) return;
  throw new Error(
    `Accessibility (axe-core, WCAG 2 A/AA and best practices) violations on ${screen}:\n${describeViolations(lasting)}`,
  );
}

function describeScreen(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** A path as the automatic checks count screens: record ids (any part holding a digit) read ':id'. */
export function screenOf(url: string): string | null {
  if (!/^https?:/.test(url)) return null;
  return new URL(url).pathname
    .split('/')
    .map((part) => (/\d/.test(part) ? ':id' : part))
    .join('/');
}

/**
 * The screen the page shows, as the automatic checks count them: its path, ids aside, marked when the
 * window is a phone's; and the layers over it, each of which the checks meet once per screen: an open
 * dialog (by its name), a toast (by its title: 'Error', 'Success'), fields showing their errors. Null when
 * the page shows no app (a blank page, a JSON answer, a closed page).
 */
async function currentScreen(page: Page): Promise<{ screen: string; layers: string[] } | null> {
  const path = page.isClosed() ? null : screenOf(page.url());
  if (path === null) return null;
  const shown = await page
    .evaluate(() => {
      if (!document.getElementById('root')) return null;
      const visible = (selector: string) =>
        Array.from(document.querySelectorAll(selector)).filter((el) => el.getClientRects().length > 0);
      const dialogs = visible('[role="dialog"], [role="alertdialog"]').map((el) => {
        const labelledBy = el.getAttribute('aria-labelledby');
        const title = labelledBy ? document.getElementById(labelledBy)?.textContent : el.getAttribute('aria-label');
        return `dialog ${title?.trim() || ''}`.trim();
      });
      const toasts = visible('.mantine-Notification-root').map((el) =>
        `toast ${el.querySelector('.mantine-Notification-title')?.textContent?.trim() ?? ''}`.trim(),
      );
      const errors = document.querySelector('[aria-invalid="true"]') ? ['field errors'] : [];
      // A phone's layout (the menu behind a burger, tables scrolling sideways) is a screen of its own.
      return { narrow: window.innerWidth < 768, layers: [...new Set([...dialogs, ...toasts, ...errors])] };
    })
    .catch(() => null);
  if (shown === null) return null;
  return { screen: shown.narrow ? `${path} (phone)` : path, layers: shown.layers };
}

const checkers = new WeakMap<Page, () => Promise<void>>();
/** The Locator actions after which a test is on a screen it waited for: the screen is checked first. */
const ACTIONS = ['click', 'dblclick', 'fill', 'press', 'check', 'uncheck', 'selectOption'] as const;
let locatorsPatched = false;

/** Makes the Locator actions of every page run that page's checker first (one patch of the shared class). */
function patchLocatorActions(page: Page): void {
  if (locatorsPatched) return;
  locatorsPatched = true;
  const prototype = Object.getPrototypeOf(page.locator('body')) as Record<string, unknown>;
  for (const action of ACTIONS) {
    const original = prototype[action] as (this: Locator, ...args: unknown[]) => Promise<unknown>;
    prototype[action] = async function (this: Locator, ...args: unknown[]) {
      await checkers.get(this.page())?.();
      return original.apply(this, args);
    };
  }
}

/**
 * The screens the automatic checks have analysed in this run, shared by every e2e file and worker: a
 * file per screen in `dir` (global-setup.ts), created by the check that comes first. A screen's markup
 * comes from the same components whichever test opens it, so analysing it again in each file (a fifth
 * of the suite's time) found nothing the first analysis had not.
 */
export interface CheckedScreens {
  /** Marks the screens checked; true when one of them had not been, so the caller analyses the page. */
  claim(screens: string[]): boolean;
}

export function checkedScreensIn(dir: string): CheckedScreens {
  return {
    claim(screens) {
      let unchecked = false;
      for (const screen of screens) {
        const file = join(dir, createHash('sha1').update(screen).digest('hex'));
        try {
          writeFileSync(file, screen, { flag: 'wx' }); // fails if it exists: one claimant wins
          unchecked = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      return unchecked;
    },
  };
}

/**
 * Checks the screens a test visits without it asking. Each screen, and each layer over it (a dialog, a
 * toast, fields in error: see `currentScreen`), is analysed with `expectAccessible` once per run
 * (`checked`), at the first of these moments while the page shows it: before a Locator
 * action (click, fill, press, check, selectOption: the test has waited for the screen it acts on),
 * before `page.goto` leaves it, and before the context closes. A test checks a state that none of those
 * meets with `expectAccessible` itself.
 */
export function checkEveryScreen(context: BrowserContext, page: Page, checked: CheckedScreens): void {
  let running = false;
  const checkCurrent = async () => {
    if (running) return;
    running = true;
    try {
      const shown = await currentScreen(page);
      if (shown === null) return;
      const seen = [shown.screen, ...shown.layers.map((layer) => `${shown.screen} [${layer}]`)];
      if (checked.claim(seen)) await expectAccessible(page);
    } finally {
      running = false;
    }
  };
  checkers.set(page, checkCurrent);
  patchLocatorActions(page);
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    await checkCurrent();
    return goto(...args);
  };
  const close = context.close.bind(context);
  context.close = async (...args: Parameters<BrowserContext['close']>) => {
    try {
      await checkCurrent();
    } finally {
      await close(...args);
    }
  };
}
