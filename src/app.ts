// buildApp: the HTTP face of Ponte, what server.ts listens with and what tests inject into.
import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Ponte } from './context.js'
import { loggerOptions } from './logging.js'
import problems from './plugins/problems.js'
import { requireApiKey } from './plugins/auth.js'
import health from './routes/health.js'
import appointments from './routes/appointments.js'
import clients from './routes/clients.js'
import lookups from './routes/lookups.js'

export const INTERFACE_VERSION = '1'

export interface AppOptions {
  /** false: no logs (tests); otherwise the pino level. */
  logLevel?: string | false
}

export async function buildApp (ponte: Ponte, options: AppOptions = {}): Promise<FastifyInstance> {
  const level = options.logLevel ?? ponte.config.logLevel
  const app = Fastify({
    logger: level === false ? false : loggerOptions(level),
    bodyLimit: 64 * 1024,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: true } }
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.decorate('ponte', ponte)
  await app.register(problems)
  app.addHook('onSend', async (_request, reply) => { reply.header('ponte-interface-version', INTERFACE_VERSION) })
  await app.register(health)
  await app.register(async (api) => {
    requireApiKey(api, ponte.config.apiKeyHashes)
    await api.register(appointments)
    await api.register(clients)
    await api.register(lookups)
  }, { prefix: ponte.config.basePath })
  return app
}
