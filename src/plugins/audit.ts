// One audit line per write (POST, PATCH, PUT, DELETE) once it is answered: the route pattern, the record
// id, the outcome and the name of the key that asked. Never the key, never a body: what a
// write changed is the clinic database's business; who asked for which record is ours.
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest, onResponseHookHandler, preSerializationHookHandler } from 'fastify'
import { looksLikeId, UNMATCHED, WITHHELD } from '../logging.js'
import { REPLAYED_HEADER } from './idempotency.js'
import { asList } from './hook-list.js'

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])

/** What became of a write, in one word. */
export function outcomeOf (status: number, replayed: boolean): string {
  if (replayed) return 'replayed'
  if (status < 300) return 'done'
  if (status < 500) return 'refused'
  return 'failed'
}

export default fp(async function audit (app: FastifyInstance) {
  const created = new WeakMap<FastifyRequest, unknown>()
  // Each checks the method too: a route may answer a read and a write (method: ['GET', 'POST']).
  const remember: preSerializationHookHandler = (request, reply, payload, done) => {
    if (WRITES.has(request.method) && reply.statusCode < 300 && payload !== null && typeof payload === 'object') {
      created.set(request, (payload as { id?: unknown }).id)
    }
    done(null, payload)
  }
  const line: onResponseHookHandler = (request, reply, done) => {
    if (!WRITES.has(request.method)) { done(); return }
    const params = request.params as { id?: unknown } | undefined
    const raw = params?.id ?? created.get(request)
    // An id as the log allows it (logging.ts): a phone or CPF used as a key never gets in.
    const record = raw === undefined || raw === null ? undefined : looksLikeId(String(raw)) ? String(raw) : WITHHELD
    const route = request.is404 === true ? UNMATCHED : request.routeOptions.url ?? UNMATCHED
    request.log.info({
      audit: {
        method: request.method,
        route,
        ...(record !== undefined ? { record } : {}),
        status: reply.statusCode,
        outcome: outcomeOf(reply.statusCode, reply.getHeader(REPLAYED_HEADER) === 'true'),
        key: request.apiKey?.name ?? null
      }
    }, 'audit')
    done()
  }
  // On the write routes alone: a read (most requests) runs neither hook.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some((m) => WRITES.has(m))) return
    route.preSerialization = [...asList(route.preSerialization), remember]
    route.onResponse = [...asList(route.onResponse), line]
  })
}, { name: 'ponte-audit' })
