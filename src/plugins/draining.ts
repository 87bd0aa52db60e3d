// Shutdown as callers see it. Once app.close() starts, requests already being handled finish
// (and their connection closes after the answer, so the server can stop), while a request
// arriving on a still-open connection gets a 503 problem with `Connection: close` at once.
// Fastify's own closing answer (`return503OnClosing`) is switched off in app.ts: its body is
// not a problem document.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { ShuttingDownError } from '../errors.js'

export default fp(async function draining (app: FastifyInstance) {
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  // Callback style, as every hook run on each request: no promise per hook.
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new ShuttingDownError() : undefined)
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
}, { name: 'ponte-draining' })
