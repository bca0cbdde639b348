import type { Page } from '@playwright/test';

/**
 * Runs axe on every dialog (role=dialog) a test opens, whatever the test itself checks: a modal added later
 * cannot go unchecked. The page tells us when a dialog is fully shown (a MutationObserver in an init script);
 * each dialog title is checked once per test, in its first shown state, so a test that opens the same modal ten
 * times pays for one check. Violations are collected and fail the test when it ends (fixtures.ts).
 */

const BINDING = '__centralinoDialogShown';
const MARK = 'data-axe-dialog';

/** The page side: tells BINDING the title of each dialog that became fully visible, once per title and document. */
function observeDialogs({ binding, mark }: { binding: string; mark: string }) {
  const told = new Set<string>();
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
  const check = () => {
    scheduled = false;
    let waiting = false;
    for (const el of document.querySelectorAll('[role="dialog"]')) {
      if (el.hasAttribute(mark)) continue;
      if (!shown(el)) {
        waiting = el.isConnected;
        continue;
      }
      const title = titleOf(el);
      if (told.has(title)) continue;
      told.add(title);
      el.setAttribute(mark, String(++next));
      const call = (window as unknown as Record<string, (id: string, title: string) => Promise<void>>)[binding];
      void call?.(String(next), title);
    }
    // A dialog still fading in: look again on the next frame.
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
      attributeFilter: ['style', 'class', 'role', 'hidden', 'aria-hidden'],
    });
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

export interface DialogAxeWatch {
  /** Waits for the checks under way, then answers what they found ('title: impact rule: targets' lines). */
  finish: () => Promise<string[]>;
  /** Titles checked, for the report of a slow or failing test. */
  checked: string[];
}

export async function watchDialogs(
  page: Page,
  violationsIn: (page: Page, selectors: string[]) => Promise<string[]>,
): Promise<DialogAxeWatch> {
  const checked: string[] = [];
  const found: string[] = [];
  const running = new Set<Promise<void>>();
  await page.exposeBinding(BINDING, async (_source, id: string, title: string) => {
    if (checked.includes(title)) return;
    checked.push(title);
    const run = violationsIn(page, [`[${MARK}="${id}"]`])
      .then((lines) => {
        for (const line of lines) found.push(`dialog "${title}": ${line}`);
      })
      // The page went away (navigation, end of the test) while axe ran: nothing to say about this dialog.
      .catch(() => undefined);
    running.add(run);
    await run;
    running.delete(run);
  });
  await page.addInitScript(observeDialogs, { binding: BINDING, mark: MARK });
  return {
    checked,
    finish: async () => {
      await Promise.all(running);
      return found;
    },
  };
}
