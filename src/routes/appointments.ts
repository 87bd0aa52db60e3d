import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Appointment } from '../schemas/resources.js'
import { AppointmentListQuery, ByIdParams, NewAppointmentBody, StateBody, TimeBody } from '../schemas/queries.js'
import { errorResponses, writeErrorResponses } from '../schemas/responses.js'

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

  app.post('/appointments', {
    config: { idempotent: true },
    schema: {
      tags: ['appointments'],
      summary: 'Book a slot (created as the initial state, WAITING by default)',
      body: NewAppointmentBody,
      response: { 200: Appointment, ...writeErrorResponses }
    }
  }, async (request) => await app.ponte.booking.book(request.body))

  app.patch('/appointments/:id/state', {
    schema: {
      tags: ['appointments'],
      summary: 'Move an appointment to another state',
      params: ByIdParams,
      body: StateBody,
      response: { 200: Type.String(), ...writeErrorResponses }
    }
  }, async (request, reply) => await reply.type('text/plain; charset=utf-8').send(await app.ponte.booking.changeState(request.params.id, request.body.state)))

  app.patch('/appointments/:id/time', {
    schema: {
      tags: ['appointments'],
      summary: 'Reschedule an appointment to a free slot',
      params: ByIdParams,
      body: TimeBody,
      response: { 200: Type.String(), ...writeErrorResponses }
    }
  }, async (request, reply) => await reply.type('text/plain; charset=utf-8').send(await app.ponte.booking.reschedule(request.params.id, request.body)))
}

export default appointments
