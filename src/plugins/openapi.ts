// The OpenAPI document (/openapi.json) and a docs page (/docs), generated from the route
// schemas, so the contract, the validation and the documentation cannot drift apart.
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { Problem } from '../schemas/problem.js'
import { Appointment, Client, HealthInsurance, Location, Professional, Service, Slot, Specialty } from '../schemas/resources.js'
import { ChangeEventSchema, EVENT_MEANING } from '../schemas/events.js'
import { EVENT_TYPES } from '../events/event.js'

export const DESCRIPTION = `The Scheduling Integration Interface, served by Ponte on top of the clinic's own database.

Decisions where the interface specification is silent:
- Authentication: \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` on every route here.
- Errors: RFC 9457 problem details (application/problem+json) with \`errors[{path, message}]\` for invalid input; 400 invalid input, 401 key, 404 unknown id, 409 conflict (slot taken, forbidden state move, key in flight), 422 Idempotency-Key reused with another body, 429 over the per-key rate limit (Retry-After), 501 not writable with this mapping, 503 database unavailable (Retry-After), 504 database timeout.
- Dates YYYY-MM-DD and hours HH:MM are the clinic's wall clock. GET /appointments ranges are closed and at most 92 days (configurable).
- limit defaults to 50, at most 500.
- Idempotency-Key on POST /clients and POST /appointments replays the first response.
- Every response carries \`ponte-interface-version: 1\`.`

const TAGS = [
  { name: 'appointments', description: 'Appointments: list, read, book, change state, reschedule.' },
  { name: 'clients', description: 'Clients (patients): list, search, read, register, change.' },
  { name: 'professionals', description: 'Professionals, filtered by location, service, health insurance, specialty.' },
  { name: 'locations', description: 'Clinic locations.' },
  { name: 'services', description: 'Services (procedures) and their durations.' },
  { name: 'health insurances', description: 'Health insurances accepted.' },
  { name: 'specialties', description: 'Specialties.' },
  { name: 'availability', description: 'Free slots, where the mapping describes working hours.' },
  { name: 'events', description: 'Changes to appointments (at the desk or through Ponte), where the mapping declares change detection: the pull feed; the same events as webhooks.' }
]

const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Makes a retry safe: the first answer under this key (per API key, 24 h) is replayed, with `idempotent-replayed: true`, to an identical request; a different request under the key is a 422, one still running a 409.'
  }))
})

/**
 * The installation's appointment states as an enum wherever the document names a state (the
 * answers, the list filter, PATCH …/state), so a generated client knows them. The route
 * schemas stay open: the booking service, not validation, answers a state it does not know.
 */
function withStates<T> (built: T, states: readonly string[]): T {
  // A copy: the document may share objects with the schemas every app of the process registers.
  const doc = structuredClone(built) as Record<string, any>
  const appointment = doc.components?.schemas?.Appointment?.properties?.state
  // An answer may also say UNKNOWN: a stored code the mapping does not cover (compile/appointment.ts).
  if (appointment) appointment.enum = [...states, 'UNKNOWN']
  const filter = (doc.paths?.['/appointments']?.get?.parameters ?? []).find((p: { name: string, in: string }) => p.name === 'state' && p.in === 'query')
  if (filter?.schema) filter.schema.enum = [...states]
  const body = doc.paths?.['/appointments/{id}/state']?.patch?.requestBody?.content?.['application/json']?.schema?.properties?.state
  if (body) body.enum = [...states]
  return doc as T
}

/** One `webhooks` entry per event type: the same event the feed (GET /events) answers, POSTed. */
function withWebhooks<T> (doc: T): T {
  const webhooks = Object.fromEntries(EVENT_TYPES.map((type) => [type, {
    post: {
      summary: type,
      description: EVENT_MEANING[type],
      operationId: `${type.replace('.', '_')}_webhook`,
      tags: ['events'],
      requestBody: { required: true, content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Event' }, { type: 'object', properties: { type: { const: type } } }] } } } },
      responses: { '2XX': { description: 'Received: the event is not sent again.' } }
    }
  }]))
  return { ...doc, webhooks }
}

/**
 * `states`: the appointment states of the mapping served now. Read on every request for the
 * document, so after a reload (SIGHUP) /openapi.json and /docs name the new mapping's states.
 */
export default fp(async function openapi (app: FastifyInstance, options: { version: string, basePath: string, states: () => readonly string[] }) {
  // The document is built once (the routes do not change); its states are laid on it per mapping.
  let last: { states: readonly string[], doc: unknown } | undefined
  const current = <T>(built: T): T => {
    const states = options.states()
    if (last?.states !== states) last = { states, doc: withStates(built, states) }
    return last.doc as T
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ponte — Scheduling Integration Interface',
        version: options.version,
        description: DESCRIPTION,
        // The project carries no open-source licence: each installation is licensed by contract.
        license: { name: 'Proprietary (licensed per installation)', identifier: 'LicenseRef-Ponte-Proprietary' }
      },
      servers: [{ url: options.basePath || '/', description: 'This Ponte instance (paths relative to where the document was fetched)' }],
      tags: TAGS,
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
    // Routes that honour Idempotency-Key (config.idempotent) document the header; it is read by
    // plugins/idempotency.ts, not by schema validation, so it is added to the document only.
    transformObject: (built) => 'openapiObject' in built ? withWebhooks(built.openapiObject) : built.swaggerObject,
    transform: ({ schema, url, route }) => ({
      schema: (route.config as { idempotent?: boolean } | undefined)?.idempotent === true ? { ...schema, headers: IdempotencyKeyHeader } as typeof schema : schema,
      url: options.basePath && url.startsWith(options.basePath) ? url.slice(options.basePath.length) || '/' : url
    })
  })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: { title: 'Ponte' },
    // The page reads /docs/json: the same document as /openapi.json, states included.
    transformSpecification: (spec) => current(spec),
    // current() copies the document before laying the states on it.
    transformSpecificationClone: false,
    // The key typed into "Authorize" survives a reload of the page.
    uiConfig: { persistAuthorization: true, displayOperationId: true, tryItOutEnabled: false }
  })
  // Shared schemas (the resources, the problem) are registered once and referred to by name
  // from the routes (schemas/responses.ts), so the document lists them in components.
  for (const schema of [Problem, Specialty, HealthInsurance, Professional, Location, Service, Client, Appointment, Slot, ChangeEventSchema]) app.addSchema(schema)
  app.get('/openapi.json', { schema: { hide: true } as Record<string, unknown> }, async () => current(app.swagger()))
}, { name: 'ponte-openapi' })
