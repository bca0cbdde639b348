import type { Page } from '@playwright/test';

/**
 * Runs axe on every dialog (role=dialog) a test opens, whatever the test itself checks: a modal added later
 * cannot go unchecked. The page tells us when a dialog is fully shown (a MutationObserver in an init script);
 * each state of a dialog (observeDialogs) is checked once per test, so a test that opens the same modal ten
 * times pays for one check. Violations are collected and fail the test when it ends (fixtures.ts).
 */

const BINDING = '__centralinoDialogShown';
const MARK = 'data-axe-dialog';
/** States of one dialog checked at most in a test: a dialog whose content keeps changing stays cheap. */
const PER_TITLE = 6;

/**
 * The page side: calls BINDING with a key (title and state) for each dialog once it is fully visible and its
 * state has held for a frame. A state is the kinds and numbers of the controls, tables and alerts it holds, so a
 * step, an error or a preview that appears in the same dialog is checked too, while typing is not a new state.
 */
function observeDialogs({ binding, mark, perTitle }: { binding: string; mark: string; perTitle: number }) {
  const told = new Set<string>();
  const states = new Map<string, number>();
  const seen = new WeakMap<Element, string>();
  let next = 0;
  let scheduled = false;
  const shown = (el: Element) => {
    if (!(el as HTMLElement).checkVisibility?.()) return false;
    for (let node: Element | null = el; node; node = node.parentElement) {
      if (getComputedStyle(node).opacity !== '1') return false;
    }
    return true;
  };
  const titleOf = (el: Element) => {
    const ids = el.getAttribute('aria-labelledby');
    const labelled = ids
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
    return labelled || el.getAttribute('aria-label') || (el.textContent ?? '').trim().slice(0, 60);
  };
  const stateOf = (el: Element) => {
    const counts = new Map<string, number>();
    for (const part of el.querySelectorAll('button, input, select, textarea, table, a, [role]')) {
      const kind = `${part.tagName}/${part.getAttribute('role') ?? ''}/${part.getAttribute('type') ?? ''}`;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    return [...counts].sort().join(',');
  };
  // A control mid-request (Mantine's loading button fades its label out) is a moment, not a state to judge.
  const busy = (el: Element) => el.querySelector('[data-loading], [aria-busy="true"]') !== null;
  const keyOf = (el: Element) => `${titleOf(el)}\u0000${stateOf(el)}`;
  // Asked again when axe has finished: a dialog that changed (or closed, or faded) while axe ran was judged
  // half-drawn, and what axe said about it is not kept.
  (window as unknown as Record<string, (id: string, key: string) => boolean>)[`${binding}Still`] = (id, key) => {
    const el = document.querySelector(`[${mark}="${id}"]`);
    if (el !== null && shown(el) && !busy(el) && keyOf(el) === key) return true;
    // Not judged after all: offered again when it holds still.
    told.delete(key);
    const title = key.split('\u0000')[0] ?? '';
    states.set(title, (states.get(title) ?? 1) - 1);
    schedule();
    return false;
  };
  const check = () => {
    scheduled = false;
    let waiting = false;
    for (const el of document.querySelectorAll('[role="dialog"]')) {
      if (!shown(el) || busy(el)) {
        waiting ||= el.isConnected;
        continue;
      }
      const title = titleOf(el);
      const key = keyOf(el);
      if (seen.get(el) !== key) {
        // Changed since the last look: wait a frame for it to settle.
        seen.set(el, key);
        waiting = true;
        continue;
      }
      if (told.has(key) || (states.get(title) ?? 0) >= perTitle) continue;
      told.add(key);
      states.set(title, (states.get(title) ?? 0) + 1);
      el.setAttribute(mark, String(++next));
      const call = (window as unknown as Record<string, (id: string, key: string) => Promise<void>>)[binding];
      void call?.(String(next), key);
    }
    if (waiting) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(check);
  };
  const start = () =>
    new MutationObserver(schedule).observe(document.documentElement, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['style', 'class', 'role', 'hidden', 'aria-hidden', 'data-loading', 'aria-busy'],
    });
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

export interface DialogAxeWatch {
  /** Waits for the checks under way, then answers what they found ('title: impact rule: targets' lines). */
  finish: () => Promise<string[]>;
  /** Titles of the dialog states checked, for the report of a failing test. */
  checked: string[];
}

export async function watchDialogs(
  page: Page,
  violationsIn: (page: Page, selectors: string[]) => Promise<string[]>,
): Promise<DialogAxeWatch> {
  const checked: string[] = [];
  const seen = new Set<string>();
  const found: string[] = [];
  const running = new Set<Promise<void>>();
  await page.exposeBinding(BINDING, async (_source, id: string, key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const [title = ''] = key.split('\u0000');
    checked.push(title);
    const run = violationsIn(page, [`[${MARK}="${id}"]`])
      .then(async (lines) => {
        if (lines.length === 0) return;
        const still = await page.evaluate(
          ({ name, id, key }) =>
            (window as unknown as Record<string, (id: string, key: string) => boolean>)[name]?.(id, key) ?? false,
          { name: `${BINDING}Still`, id, key },
        );
        if (!still) {
          // Judged while it changed: let the page offer this state again once it holds still.
          seen.delete(key);
          return;
        }
        for (const line of lines) found.push(`dialog "${title}": ${line}`);
      })
      // The page went away (navigation, end of the test) while axe ran: nothing to say about this dialog.
      .catch(() => undefined);
    running.add(run);
    await run;
    running.delete(run);
  });
  await page.addInitScript(observeDialogs, { binding: BINDING, mark: MARK, perTitle: PER_TITLE });
  return {
    checked,
    finish: async () => {
      await Promise.all(running);
      return found;
    },
  };
}
