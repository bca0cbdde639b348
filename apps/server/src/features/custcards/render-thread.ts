import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../worker-thread.ts';
import { CARD_LIMITS, type TemplateFailure, type TemplateRow } from './liquid-engine.ts';

export type RenderRequest =
  | { id: number; op: 'parse'; source: string }
  | { id: number; op: 'render'; source: string; rows: TemplateRow[]; lang: string };

export type RenderReply = { id: number; html: string } | { id: number; failure: TemplateFailure };

/** Templates parsed or rendered at once: one thread each, one core fewer than the machine has (at least one). */
export const RENDERS_AT_ONCE = Math.max(1, availableParallelism() - 1);
/** How long past CARD_LIMITS.renderMs a thread may run before it is stopped (liquidjs checks between tags). */
const GRACE_MS = 500;

/** The thread's code (see startThread), with the card limits' heap. */
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: CARD_LIMITS.memoryMb, maxYoungGenerationSizeMb: 16 };
  return startThread(import.meta.url, './card-render-worker.js', './render-worker.ts', { resourceLimits });
}

interface Job {
  request: RenderRequest;
  resolve(html: string): void;
  reject(error: TemplateRefusedError): void;
}

/** A parse or render refused (the reason for the administrator) or a thread that failed (the error as it came). */
export class TemplateRefusedError extends Error {
  constructor(readonly failure: TemplateFailure | { kind: 'crashed'; message: string }) {
    super(failure.kind === 'crashed' ? failure.message : failure.kind);
  }
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/**
 * Parses and renders card templates on threads of their own, so that the request thread keeps answering whatever
 * a template does. A thread has a heap of CARD_LIMITS.memoryMb (a template that builds more is stopped by V8, not
 * the server); a job that outlives CARD_LIMITS.renderMs plus a little is stopped by terminating its thread (liquidjs
 * checks its own time limit only between tags, a filter over a large value runs on). Threads are started on first
 * use, kept between jobs without keeping the process alive, and a stopped one is replaced at the next job.
 */
export class CardRenderer {
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size = RENDERS_AT_ONCE) {}

  /** Checks that the text parses (nothing is rendered). */
  async check(source: string): Promise<void> {
    await this.run({ id: this.nextId++, op: 'parse', source });
  }

  async render(source: string, rows: TemplateRow[], lang: string): Promise<string> {
    return this.run({ id: this.nextId++, op: 'render', source, rows, lang });
  }

  private run(request: RenderRequest): Promise<string> {
    if (this.closed) return Promise.reject(new TemplateRefusedError({ kind: 'crashed', message: 'closed' }));
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let thread = [...this.threads].find((t) => t.ready && !t.job);
      if (!thread) {
        // Threads still loading take the next jobs when they are ready.
        const starting = [...this.threads].filter((t) => !t.ready).length;
        const waiting = this.queue.length;
        if (this.threads.size < this.size && starting < waiting) this.start();
        return;
      }
      const job = this.queue.shift() as Job;
      thread.job = job;
      thread.worker.ref();
      thread.timer = setTimeout(() => this.overdue(thread as Thread), CARD_LIMITS.renderMs + GRACE_MS);
      thread.worker.postMessage(job.request);
      thread = undefined;
    }
  }

  private start(): void {
    const thread: Thread = { worker: startWorker(), ready: false };
    this.threads.add(thread);
    thread.worker.unref();
    thread.worker.on('message', (reply: RenderReply) => {
      if (!thread.ready) {
        thread.ready = true;
        this.pump();
        return;
      }
      const job = thread.job;
      if (!job || job.request.id !== reply.id) return;
      this.finish(thread);
      if ('failure' in reply) job.reject(new TemplateRefusedError(reply.failure));
      else job.resolve(reply.html);
      this.pump();
    });
    thread.worker.on('error', (error: Error & { code?: string }) => {
      const failure: TemplateFailure | { kind: 'crashed'; message: string } =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'too_large', what: 'memory' }
          : { kind: 'crashed', message: error.message };
      this.lost(thread, failure);
    });
    thread.worker.on('exit', (code) =>
      this.lost(thread, { kind: 'crashed', message: `the template thread stopped (${code})` }),
    );
  }

  private finish(thread: Thread): void {
    clearTimeout(thread.timer);
    thread.timer = undefined;
    thread.job = undefined;
    thread.worker.unref();
  }

  /** A job past its deadline: answered as too slow, and its thread stopped. */
  private overdue(thread: Thread): void {
    const job = thread.job;
    if (!job) return;
    this.lost(thread, { kind: 'timeout' });
    void thread.worker.terminate();
  }

  private lost(thread: Thread, failure: TemplateFailure | { kind: 'crashed'; message: string }): void {
    if (!this.threads.delete(thread)) return;
    const job = thread.job;
    this.finish(thread);
    job?.reject(new TemplateRefusedError(failure));
    if (!thread.ready) {
      // A thread that could not even load fails the jobs waiting for it rather than being started again and again.
      for (const waiting of this.queue.splice(0)) waiting.reject(new TemplateRefusedError(failure));
      return;
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = [...this.threads];
    this.threads.clear();
    for (const job of this.queue.splice(0))
      job.reject(new TemplateRefusedError({ kind: 'crashed', message: 'closed' }));
    for (const thread of threads) {
      const job = thread.job;
      this.finish(thread);
      job?.reject(new TemplateRefusedError({ kind: 'crashed', message: 'closed' }));
    }
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
