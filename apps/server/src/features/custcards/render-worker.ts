// The customer cards' template thread: parses and renders administrators' Liquid templates away from the request
// thread, under CARD_LIMITS (render-thread.ts starts it with a heap limit and stops it at its deadline).
import { parentPort } from 'node:worker_threads';
import type { Template } from 'liquidjs';
import { engine, parse, render, TemplateRefused } from './liquid-engine.ts';
import type { RenderReply, RenderRequest } from './render-thread.ts';

const port = parentPort;
if (!port) throw new Error('render-worker.ts runs as a worker thread');
const liquid = engine();
// A preview checks the template and then renders the same text: parsed once.
let last: { source: string; templates: Template[] } | undefined;

port.on('message', async (request: RenderRequest) => {
  let reply: RenderReply;
  try {
    const templates = last?.source === request.source ? last.templates : parse(liquid, request.source);
    last = { source: request.source, templates };
    const html =
      request.op === 'parse' ? '' : await render(liquid, templates, { results: request.rows, lang: request.lang });
    reply = { id: request.id, html };
  } catch (error) {
    if (!(error instanceof TemplateRefused)) throw error;
    reply = { id: request.id, failure: error.failure };
  }
  port.postMessage(reply);
});
port.postMessage({ id: 0, html: '' } satisfies RenderReply);
