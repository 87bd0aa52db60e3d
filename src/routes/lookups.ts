// The five lookup resources share one shape: a filtered list and a detail.
import Type, { type TObject, type TSchema } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { HealthInsurance, Location, Professional, Service, Specialty } from '../schemas/resources.js'
import { ByIdParams, HealthInsuranceQuery, LocationQuery, ProfessionalQuery, ServiceQuery, SpecialtyQuery } from '../schemas/queries.js'
import { jsonBody, responses } from '../schemas/responses.js'
import { examples } from '../schemas/examples.js'
import type { LookupName } from '../mapping/model.js'
import type { LookupFilters } from '../services/lookups.js'

const RESOURCES: { name: LookupName, path: string, entity: TSchema, query: TObject, tag: string, op: [string, string], example: unknown }[] = [
  { name: 'professional', path: '/professionals', entity: Professional, query: ProfessionalQuery, tag: 'professionals', op: ['listProfessionals', 'getProfessional'], example: examples.professional },
  { name: 'location', path: '/locations', entity: Location, query: LocationQuery, tag: 'locations', op: ['listLocations', 'getLocation'], example: examples.location },
  { name: 'service', path: '/services', entity: Service, query: ServiceQuery, tag: 'services', op: ['listServices', 'getService'], example: examples.service },
  { name: 'healthInsurance', path: '/health-insurances', entity: HealthInsurance, query: HealthInsuranceQuery, tag: 'health insurances', op: ['listHealthInsurances', 'getHealthInsurance'], example: examples.healthInsurance },
  { name: 'specialty', path: '/specialties', entity: Specialty, query: SpecialtyQuery, tag: 'specialties', op: ['listSpecialties', 'getSpecialty'], example: examples.specialty }
]

const lookups: FastifyPluginAsyncTypebox = async (app) => {
  for (const r of RESOURCES) {
    app.get(r.path, {
      schema: { tags: [r.tag], operationId: r.op[0], summary: `List ${r.tag}`, description: `Every one of the ${r.tag} that matches all the filters given (relations of this installation's mapping); none given: all of them.`, querystring: r.query, response: responses(jsonBody(Type.Array(r.entity), `The ${r.tag} that match every filter`, [r.example]), 'list') }
    }, async (request) => await app.ponte.lookups.list(r.name, request.query as LookupFilters, request.arrival))

    app.get(`${r.path}/:id`, {
      schema: { tags: [r.tag], operationId: r.op[1], summary: `One of the ${r.tag}`, description: 'The one with this id; 404 when there is none.', params: ByIdParams, response: responses(jsonBody(r.entity, `One of the ${r.tag}`, r.example), 'detail') }
    }, async (request) => await app.ponte.lookups.get(r.name, request.params.id, request.arrival))
  }
}

export default lookups
