import type { Worker } from 'node:worker_threads';
import { startThread } from '../worker-thread.ts';
import type { ValidationIssue } from './validate.ts';

export type ValidatorRequest =
  | { type: 'file'; name: string; text: string }
  | { type: 'check'; id: number; names: string[] }
  | { type: 'ping'; id: number }
  | { type: 'reset' };

export type ValidatorReply =
  | { type: 'result'; id: number; issues: ValidationIssue[]; checked: number }
  | { type: 'error'; id: number; message: string }
  | { type: 'pong'; id: number };

/** The worker's code (see startThread). */
function startWorker(): Worker {
  return startThread(import.meta.url, './validate-worker.js', './validate-worker.ts');
}

/**
 * The incremental validator on a thread of its own: it parses each file while the main thread
 * renders the next one (the two overlap instead of running one after the other), and its index of
 * a hundred thousand definitions lives and is collected in its own heap, away from the requests the
 * main thread serves.
 *
 * Only files whose text changed since they were last sent cross over. If the thread fails, it is
 * started afresh at the next use and given every file again.
 */
export class ValidatorThread {
  private worker: Worker | undefined;
  /** What the thread holds: the text last sent of each file. */
  private sent = new Map<string, string>();
  private waiting = new Map<number, { resolve(reply: ValidatorReply): void; reject(error: Error): void }>();
  private nextId = 1;
  /** Files checked again by the last check (tests, benchmark). */
  lastChecked = 0;

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (reply: ValidatorReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      waiter?.resolve(reply);
    });
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the validator thread stopped (exit code ${code})`)));
    // Idle, it does not keep the process alive; a check in progress does (see check()).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.sent = new Map();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiter of waiting) waiter.reject(error);
  }

  /** Hands over one rendered file (nothing crosses when the thread has this text already). */
  send(name: string, text: string): void {
    if (this.sent.get(name) === text) return;
    const worker = this.thread();
    this.sent.set(name, text);
    worker.postMessage({ type: 'file', name, text } satisfies ValidatorRequest);
  }

  private ask(request: ValidatorRequest): Promise<ValidatorReply> {
    const worker = this.thread();
    return new Promise<ValidatorReply>((resolve, reject) => {
      this.waiting.set((request as { id: number }).id, { resolve, reject });
      worker.ref();
      worker.postMessage(request);
    });
  }

  /** Starts the thread and waits until it has loaded its code, so that the first apply need not. */
  async ready(): Promise<void> {
    await this.ask({ type: 'ping', id: this.nextId++ });
  }

  /** Checks the configuration made of these files; any not yet handed over are sent first. */
  async check(files: Map<string, string>): Promise<ValidationIssue[]> {
    for (const [name, text] of files) this.send(name, text);
    for (const name of this.sent.keys()) if (!files.has(name)) this.sent.delete(name);
    const reply = await this.ask({ type: 'check', id: this.nextId++, names: [...files.keys()] });
    if (reply.type !== 'result') {
      // Its index may be half updated: start afresh next time.
      await this.close();
      throw new Error(`The configuration check failed: ${reply.type === 'error' ? reply.message : reply.type}`);
    }
    this.lastChecked = reply.checked;
    return reply.issues;
  }

  /** Forgets every file: the next check is a full one (benchmark). */
  reset(): void {
    this.sent = new Map();
    this.worker?.postMessage({ type: 'reset' } satisfies ValidatorRequest);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.lost(worker, new Error('the validator thread was closed'));
    await worker.terminate();
  }
}
