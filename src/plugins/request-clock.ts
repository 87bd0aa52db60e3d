// Marks when each request arrived (request.arrival), which routes pass down to the database
// calls they make, for the drivers' bounded waits (db/database.ts Arrival).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived. */
    arrival: number
  }
}

export default fp(async function requestClock (app: FastifyInstance) {
  app.decorateRequest('arrival', 0)
  app.addHook('onRequest', (request, _reply, done) => { request.arrival = performance.now(); done() })
}, { name: 'ponte-request-clock' })
