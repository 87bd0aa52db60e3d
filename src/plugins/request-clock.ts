// Marks when each request arrived, for the database drivers' bounded waits (db/request-clock.ts).
// Callback style: the rest of the request's lifecycle runs inside `done`, and so inside the store.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { servingRequest } from '../db/request-clock.js'

export default fp(async function requestClock (app: FastifyInstance) {
  app.addHook('onRequest', (_request, _reply, done) => { servingRequest(performance.now(), done) })
}, { name: 'ponte-request-clock' })
