import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Appointment } from '../schemas/resources.js'
import { AppointmentListQuery, ByIdParams } from '../schemas/queries.js'
import { errorResponses } from '../schemas/responses.js'

const appointments: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/appointments', {
    schema: {
      tags: ['appointments'],
      summary: 'Appointments in a closed date range',
      querystring: AppointmentListQuery,
      response: { 200: Type.Array(Appointment), ...errorResponses }
    }
  }, async (request) => await app.ponte.appointments.list(request.query))

  app.get('/appointments/:id', {
    schema: {
      tags: ['appointments'],
      summary: 'One appointment',
      params: ByIdParams,
      response: { 200: Appointment, ...errorResponses }
    }
  }, async (request) => await app.ponte.appointments.get(request.params.id))
}

export default appointments
