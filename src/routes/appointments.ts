import { Readable } from 'node:stream'
import Type from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Appointment } from '../schemas/resources.js'
import { AppointmentListQuery, ByIdParams, NewAppointmentBody, StateBody, TimeBody } from '../schemas/queries.js'
import { jsonBody, responses, textBody } from '../schemas/responses.js'
import { examples } from '../schemas/examples.js'
import { answerStored } from './stored.js'

const appointments: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/appointments', {
    schema: {
      tags: ['appointments'],
      operationId: 'listAppointments',
      summary: 'Appointments in a closed date range',
      description: 'Every appointment from `start` to `end`, both days included (at most 92 days), ordered by date and hour, with the related records nested unless `minimal=true`. Filters narrow it to a professional, client, service, location or state.',
      querystring: AppointmentListQuery,
      response: responses(jsonBody(Type.Array(Appointment), 'The appointments of the range, by date and hour', [examples.appointment]), 'list')
    }
  }, async (request, reply) => {
    const ponte = app.ponte
    // A capture records whole answers (toolkit/capture): lists are then built whole.
    if (!ponte.config.streamLists || ponte.config.captureDir !== undefined) return await ponte.appointments.list(request.query, request.arrival)
    const out = await ponte.appointments.listOrStream(request.query, request.arrival)
    // A long list streamed (services/list-stream.ts): its status and headers are decided by now.
    if (out instanceof Readable) return await reply.type('application/json; charset=utf-8').send(out)
    return out
  })

  app.get('/appointments/:id', {
    schema: {
      tags: ['appointments'],
      operationId: 'getAppointment',
      summary: 'One appointment',
      description: 'The appointment with this id, as the list gives it; 404 when there is none.',
      params: ByIdParams,
      response: responses(jsonBody(Appointment, 'The appointment', examples.appointment), 'detail')
    }
  }, (request) => app.ponte.appointments.get(request.params.id, request.arrival))

  app.post('/appointments', {
    config: { idempotent: true },
    schema: {
      tags: ['appointments'],
      operationId: 'bookAppointment',
      summary: 'Book a slot (created as the initial state, WAITING by default)',
      description: 'Books the client into the slot at `date` and `hour`. A slot already taken, or outside the professional\'s hours, is a 409. Send an `Idempotency-Key` to make a retry safe.',
      body: NewAppointmentBody,
      response: responses(jsonBody(Appointment, 'The booked appointment', examples.appointment, 'create'), 'create')
    }
  }, async (request, reply) => {
    const ponte = app.ponte
    const stored = await ponte.booking.book(request.body, request.arrival)
    // In the event feed before the answer (change detection, where mapped), as the booking read it back.
    await app.changes.written(ponte, [stored.record.id], undefined, stored.record)
    return answerStored(reply, stored)
  })

  app.patch('/appointments/:id/state', {
    schema: {
      tags: ['appointments'],
      operationId: 'changeAppointmentState',
      summary: 'Move an appointment to another state',
      description: 'Sets the appointment\'s state (confirm, cancel, mark as done or missed). A move this installation does not allow is a 409; the answer is a sentence saying the new state.',
      params: ByIdParams,
      body: StateBody,
      response: responses(textBody('A sentence saying the state the appointment is now in', 'Appointment 88231 is now CONFIRMED.'), 'write')
    }
  }, async (request, reply) => {
    const ponte = app.ponte
    const said = await ponte.booking.changeState(request.params.id, request.body.state, request.arrival)
    // The state asked for: what an open slot released by it was canceled into.
    await app.changes.written(ponte, [request.params.id], request.body.state)
    return await reply.type('text/plain; charset=utf-8').send(said)
  })

  app.patch('/appointments/:id/time', {
    schema: {
      tags: ['appointments'],
      operationId: 'rescheduleAppointment',
      summary: 'Reschedule an appointment to a free slot',
      description: 'Moves the appointment to another date and hour with the same professional; the new slot must be free (else 409). The answer is a sentence saying where it moved.',
      params: ByIdParams,
      body: TimeBody,
      response: responses(textBody('A confirmation of the new date and hour', 'Appointment 88231 moved to 2030-03-14 10:00.'), 'write')
    }
  }, async (request, reply) => {
    const ponte = app.ponte
    const said = await ponte.booking.reschedule(request.params.id, request.body, request.arrival)
    // Open slots: the appointment now lives in the new slot's row, seen by the next poll.
    await app.changes.written(ponte, [request.params.id])
    return await reply.type('text/plain; charset=utf-8').send(said)
  })
}

export default appointments
