// Request ids: the caller's `X-Request-Id` when it is a safe token (so a trace crosses the
// caller's logs and ours), else a fresh UUID. Fastify binds it to the request logger
// (`reqId` on every line of that request) and every response carries it back.
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'

export const REQUEST_ID_HEADER = 'x-request-id'
/** Letters, digits and `._:-`, 1–128 long: UUIDs, ULIDs, trace ids; never free text (a log is no place for it). */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export function requestIdOf (req: Pick<IncomingMessage, 'headers'>): string {
  const sent = req.headers[REQUEST_ID_HEADER]
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID()
}

/** Fastify factory options: our id instead of its counter (`requestIdHeader: false`: genReqId decides). */
export function requestIdOptions (): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  return { requestIdHeader: false, genReqId: requestIdOf }
}

export default fp(async function requestId (app: FastifyInstance) {
  // onRequest, not onSend: the header is then on the answer whoever ends the request.
  // Callback style, as every hook run on each request: no promise per hook.
  app.addHook('onRequest', (request, reply, done) => { reply.header(REQUEST_ID_HEADER, request.id); done() })
}, { name: 'ponte-request-id' })
