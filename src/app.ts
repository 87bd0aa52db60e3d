// buildApp: the HTTP face of Ponte, what server.ts listens with and what tests inject into.
import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Ponte } from './context.js'
import { loggerOptions } from './logging.js'
import problems, { frameworkProblemOptions } from './plugins/problems.js'
import methods from './plugins/methods.js'
import input from './plugins/input.js'
import draining from './plugins/draining.js'
import openapi from './plugins/openapi.js'
import { parseQuery, validatorCompiler } from './plugins/validation.js'
import { MAX_ID_LENGTH } from './schemas/queries.js'
import { requireApiKey } from './plugins/auth.js'
import { limitPerKey } from './plugins/rate-limit.js'
import idempotency from './plugins/idempotency.js'
import { HOUR_MS, IdempotencyStore } from './idempotency/store.js'
import health from './routes/health.js'
import appointments from './routes/appointments.js'
import clients from './routes/clients.js'
import lookups from './routes/lookups.js'
import availability from './routes/availability.js'

export const INTERFACE_VERSION = '1'

export interface AppOptions {
  /** false: no logs (tests); otherwise the pino level. */
  logLevel?: string | false
  /** Where log lines go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream
  /** An Idempotency-Key store owned by the caller (not closed with the app); default: one opened from config. */
  idempotencyStore?: IdempotencyStore
}

export async function buildApp (ponte: Ponte, options: AppOptions = {}): Promise<FastifyInstance> {
  const level = options.logLevel ?? ponte.config.logLevel
  const app = Fastify({
    logger: level === false ? false : { ...loggerOptions(level), ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: MAX_ID_LENGTH, querystringParser: parseQuery },
    // Whatever refuses a request (router, HTTP parser, shutdown) answers with a problem document.
    ...frameworkProblemOptions({ 'ponte-interface-version': INTERFACE_VERSION }),
    return503OnClosing: false
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler())
  // Responses are built field by field from the mapping, never from raw rows, so plain
  // JSON.stringify is safe here; the response schemas document them (OpenAPI) and the
  // contract tests check them. fast-json-stringify was twice as slow on accented text.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data))

  app.decorate('ponte', ponte)
  const store = options.idempotencyStore ?? new IdempotencyStore(ponte.config.idempotencyStore, { ttlMs: ponte.config.idempotencyTtlHours * HOUR_MS })
  if (options.idempotencyStore === undefined) app.addHook('onClose', async () => { store.close() })
  await app.register(problems)
  // Before any route: these watch routes being added.
  await app.register(methods)
  await app.register(input)
  await app.register(draining)
  await app.register(openapi, { version: INTERFACE_VERSION, basePath: ponte.config.basePath })
  app.addHook('onSend', async (_request, reply) => { reply.header('ponte-interface-version', INTERFACE_VERSION) })
  await app.register(health)
  await app.register(async (api) => {
    requireApiKey(api, ponte.config.apiKeyHashes)
    await limitPerKey(api, ponte.config.rateLimitPerMinute)
    // Idempotency-Key for routes with `config: { idempotent: true }` (after auth: scoped per API key).
    await api.register(idempotency, { store })
    await api.register(appointments)
    await api.register(clients)
    await api.register(lookups)
    await api.register(availability)
  }, { prefix: ponte.config.basePath })
  return app
}
