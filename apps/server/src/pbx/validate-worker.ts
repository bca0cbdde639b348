// The validator's thread: keeps an IncrementalValidator, takes files as the main thread renders
// them, and answers each check. See validate-thread.ts for the other side.
import { parentPort } from 'node:worker_threads';
import { IncrementalValidator } from './validate-incremental.ts';
import type { ValidatorReply, ValidatorRequest } from './validate-thread.ts';

const port = parentPort;
if (!port) throw new Error('validate-worker.ts runs as a worker thread');
let validator = new IncrementalValidator();

port.on('message', (request: ValidatorRequest) => {
  if (request.type === 'file') {
    validator.add(request.name, request.text);
    return;
  }
  if (request.type === 'reset') {
    validator = new IncrementalValidator();
    return;
  }
  if (request.type === 'ping') {
    port.postMessage({ type: 'pong', id: request.id } satisfies ValidatorReply);
    return;
  }
  let reply: ValidatorReply;
  try {
    const issues = validator.finish(new Set(request.names));
    reply = { type: 'result', id: request.id, issues, checked: validator.lastChecked };
  } catch (error) {
    reply = { type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
