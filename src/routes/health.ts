// Liveness and readiness, without an API key (load balancers and orchestrators call these).
import type { FastifyPluginAsync } from 'fastify'

const health: FastifyPluginAsync = async (app) => {
  app.get('/health', { schema: { hide: true } as Record<string, unknown> }, async () => ({ status: 'ok' }))
  app.get('/ready', { schema: { hide: true } as Record<string, unknown> }, async (_request, reply) => {
    try {
      await app.ponte.db.ping()
      return { status: 'ready' }
    } catch {
      return await reply.code(503).header('retry-after', '5').send({ status: 'database unavailable' })
    }
  })
}

export default health
