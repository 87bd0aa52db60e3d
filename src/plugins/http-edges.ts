// Two requests Node's HTTP server answers by itself unless told otherwise, each with a bare
// status and no body: an HTTP/1.1 request without a Host header (RFC 9112 §3.2 wants a 400;
// app.ts turns Node's own check off so the 400 is a problem document here), and CONNECT,
// which Node hands to a 'connect' listener or drops without a word. Ponte is not a proxy.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Duplex } from 'node:stream'
import { InvalidInputError, MethodNotAllowedError } from '../errors.js'
import { PROBLEM_TYPE_BASE, rawProblem } from './problems.js'

/** Methods some route of the interface answers: what a CONNECT is told to use instead. */
const METHODS = ['GET', 'HEAD', 'POST', 'PATCH']

export default fp(async function httpEdges (app: FastifyInstance, options: { headers: Record<string, string> }) {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      done(new InvalidInputError('An HTTP/1.1 request needs a Host header.', [{ path: '/headers/host', message: 'is required' }]))
      return
    }
    done()
  })
  app.server.on('connect', (_request: unknown, socket: Duplex) => {
    const refusal = new MethodNotAllowedError('CONNECT', 'Ponte', METHODS)
    const body = { type: PROBLEM_TYPE_BASE + refusal.type, title: refusal.title, status: refusal.status, detail: 'Ponte is not a proxy: CONNECT is not answered.' }
    if (socket.writable) socket.end(rawProblem({ body, headers: { ...options.headers, ...refusal.headers } }))
    setTimeout(() => socket.destroy(), 1000).unref()
  })
}, { name: 'ponte-http-edges' })
