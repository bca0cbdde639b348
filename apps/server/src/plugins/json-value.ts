import type { FastifyReply } from 'fastify';

/**
 * Sends a bare JSON string or null (the contract's shape for some answers). Fastify would send a
 * string payload as text/plain without serialising it, so it is encoded here.
 */
export function sendJsonValue(reply: FastifyReply, value: string | null) {
  return reply.type('application/json').send(JSON.stringify(value));
}
