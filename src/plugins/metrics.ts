// Request metrics, and GET /metrics for Prometheus. The endpoint is guarded by its own key
// (METRICS_KEY, sent as a bearer token): a caller's API key never opens it, since the numbers
// describe every caller's traffic. Without METRICS_KEY, /metrics is only served on the
// separate listen address (METRICS_PORT, server.ts), or not at all.
import fp from 'fastify-plugin'
import Fastify, { type FastifyInstance } from 'fastify'
import { UnauthorizedError } from '../errors.js'
import { UNMATCHED } from '../logging.js'
import type { PonteMetrics } from '../metrics/registry.js'
import { keyFinder, presentedKey } from './auth.js'

export interface MetricsOptions {
  metrics: PonteMetrics
  /** SHA-256 of METRICS_KEY; undefined: no /metrics on this listener. */
  keyHash?: string
}

export default fp(async function metricsPlugin (app: FastifyInstance, options: MetricsOptions) {
  const { metrics } = options
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the URL: a bounded set of label values.
    const route = request.is404 === true ? UNMATCHED : request.routeOptions.url ?? UNMATCHED
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000)
    done()
  })
  if (options.keyHash === undefined) return
  const valid = keyFinder([options.keyHash])
  app.get('/metrics', { schema: { hide: true } as Record<string, unknown> }, async (request, reply) => {
    if (valid(presentedKey(request.headers)) === undefined) throw new UnauthorizedError('GET /metrics needs the metrics key (METRICS_KEY) as "Authorization: Bearer <key>".')
    return await reply.type(metrics.contentType).send(await metrics.text())
  })
}, { name: 'ponte-metrics' })

/** A listener of its own for /metrics alone (METRICS_PORT): reachable only from where operators scrape. */
export async function metricsServer (metrics: PonteMetrics): Promise<FastifyInstance> {
  const server = Fastify({ logger: false })
  server.get('/metrics', async (_request, reply) => await reply.type(metrics.contentType).send(await metrics.text()))
  return server
}
