// The five lookup resources share one shape: a filtered list and a detail.
import Type, { type TObject, type TSchema } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { HealthInsurance, Location, Professional, Service, Specialty } from '../schemas/resources.js'
import { ByIdParams, HealthInsuranceQuery, LocationQuery, ProfessionalQuery, ServiceQuery, SpecialtyQuery } from '../schemas/queries.js'
import { errorResponses } from '../schemas/responses.js'
import type { LookupName } from '../mapping/model.js'
import type { LookupFilters } from '../services/lookups.js'

const RESOURCES: { name: LookupName, path: string, entity: TSchema, query: TObject, tag: string }[] = [
  { name: 'professional', path: '/professionals', entity: Professional, query: ProfessionalQuery, tag: 'professionals' },
  { name: 'location', path: '/locations', entity: Location, query: LocationQuery, tag: 'locations' },
  { name: 'service', path: '/services', entity: Service, query: ServiceQuery, tag: 'services' },
  { name: 'healthInsurance', path: '/health-insurances', entity: HealthInsurance, query: HealthInsuranceQuery, tag: 'health insurances' },
  { name: 'specialty', path: '/specialties', entity: Specialty, query: SpecialtyQuery, tag: 'specialties' }
]

const lookups: FastifyPluginAsyncTypebox = async (app) => {
  for (const r of RESOURCES) {
    app.get(r.path, {
      schema: { tags: [r.tag], summary: `List ${r.tag}`, querystring: r.query, response: { 200: Type.Array(r.entity), ...errorResponses } }
    }, async (request) => await app.ponte.lookups.list(r.name, request.query as LookupFilters))

    app.get(`${r.path}/:id`, {
      schema: { tags: [r.tag], summary: `One of the ${r.tag}`, params: ByIdParams, response: { 200: r.entity, ...errorResponses } }
    }, async (request) => await app.ponte.lookups.get(r.name, request.params.id))
  }
}

export default lookups
