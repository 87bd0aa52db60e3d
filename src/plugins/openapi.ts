// The OpenAPI document (/openapi.json) and a docs page (/docs), generated from the route
// schemas, so the contract, the validation and the documentation cannot drift apart.
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { Problem } from '../schemas/problem.js'

export const DESCRIPTION = `The Scheduling Integration Interface, served by Ponte on top of the clinic's own database.

Decisions where the interface specification is silent:
- Authentication: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` on every route here.
- Errors: RFC 9457 problem details (application/problem+json) with \`errors[{path, message}]\` for invalid input; 400 invalid input, 401 key, 404 unknown id, 409 conflict (slot taken, forbidden state move, key in flight), 422 Idempotency-Key reused with another body, 429 over the per-key rate limit (Retry-After), 501 not writable with this mapping, 503 database unavailable (Retry-After), 504 database timeout.
- Dates YYYY-MM-DD and hours HH:MM are the clinic's wall clock. GET /appointments ranges are closed and at most 92 days (configurable).
- limit defaults to 50, at most 500.
- Idempotency-Key on POST /clients and POST /appointments replays the first response.
- Every response carries \`ponte-interface-version: 1\`.`

export default fp(async function openapi (app: FastifyInstance, options: { version: string, basePath: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Ponte — Scheduling Integration Interface', version: options.version, description: DESCRIPTION },
      servers: [{ url: options.basePath || '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' }
        }
      },
      security: [{ bearer: [] }, { apiKey: [] }]
    },
    // Shared schemas keep their names (Appointment, Client, Problem…) instead of def-0, def-1….
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => typeof json.$id === 'string' ? json.$id : `def-${i}` },
    // The interface routes live under BASE_PATH; the document lists them from its root.
    transform: ({ schema, url }) => ({ schema, url: options.basePath && url.startsWith(options.basePath) ? url.slice(options.basePath.length) || '/' : url })
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  // Error responses share one schema; registering it names it in components.
  app.addSchema(Problem)
  app.get('/openapi.json', { schema: { hide: true } as Record<string, unknown> }, async () => app.swagger())
}, { name: 'ponte-openapi' })
