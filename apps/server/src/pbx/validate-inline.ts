import type { ValidationIssue } from './validate.ts';
import { IncrementalValidator } from './validate-incremental.ts';

/**
 * The incremental validator on the calling thread, for small systems: a thread of its own costs a
 * start and some memory that a configuration of a few hundred users, checked in milliseconds, does
 * not repay. It gives the event loop a turn between files it parses.
 */
export class InlineValidator {
  private validator = new IncrementalValidator();
  /** Files checked again by the last check (tests, benchmark). */
  lastChecked = 0;

  /** Files are taken in by check(): nothing runs alongside the rendering here. */
  send(_name: string, _text: string): void {}

  async check(files: Map<string, string>, filesPerTurn = 4): Promise<ValidationIssue[]> {
    let count = 0;
    for (const [name, text] of files) {
      this.validator.add(name, text);
      if (++count % filesPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const issues = this.validator.finish(files);
    this.lastChecked = this.validator.lastChecked;
    return issues;
  }

  reset(): void {
    this.validator = new IncrementalValidator();
  }
}
