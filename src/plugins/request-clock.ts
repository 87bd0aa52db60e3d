// Marks when each request arrived (request.arrival), which routes pass down to the database
// calls they make, for the drivers' bounded waits (db/database.ts Arrival).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Arrival } from '../db/database.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived (set by the first onRequest hook; undefined before it: no arrival, not time zero). */
    arrival: Arrival
  }
}

export default fp(async function requestClock (app: FastifyInstance) {
  app.decorateRequest('arrival', undefined)
  app.addHook('onRequest', (request, _reply, done) => { request.arrival = performance.now(); done() })
}, { name: 'ponte-request-clock' })
