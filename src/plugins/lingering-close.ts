// An answer that closes the connection before its request has arrived in full (a 413 for a
// body over the limit; a 401 to a caller that said `Connection: close`) does so only after the
// rest of the request has been read and thrown away, for a bounded time: a lingering close
// (RFC 9112 §9.6). Closing at once, with the caller's bytes still coming, makes the kernel
// reset the connection, and the reset can wipe out the answer before the caller has read it
// (a 50 MB body got its 413 in 5–7 tries of 10). Node closes a connection the moment an answer
// marked `Connection: close` finishes, so the answer is kept open instead, its whole body
// already sent (Content-Length exact), until the request has been read to its end, the
// caller has gone, Node's parser has refused the rest (problems.ts stops the lingering then)
// or LINGER_MS has passed. An answer that keeps the connection open needs none of this: Node
// reads the rest of the body itself, within REQUEST_TIMEOUT_MS.
import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasBody } from './input.js'

/** How long the rest of a request answered early is read before the connection is closed anyway. */
export const LINGER_MS = 5000

const lingering = new WeakMap<Socket, () => void>()

/** Ends the lingering on this connection now, if there is one. */
export function stopLingering (socket: Socket): void {
  lingering.get(socket)?.()
}

/** The answer ends the connection: it says so (a body refused, shutdown), or the caller asked for it. */
function closesConnection (request: FastifyRequest, reply: FastifyReply): boolean {
  if (/\bclose\b/i.test(String(reply.getHeader('connection') ?? ''))) return true
  const asked = String(request.headers.connection ?? '').toLowerCase()
  return /\bclose\b/.test(asked) || (request.raw.httpVersion === '1.0' && !/\bkeep-alive\b/.test(asked))
}

export default fp(async function lingeringClose (app: FastifyInstance) {
  // Callback style, as every hook run on each request: no promise per hook. Registered after
  // the hooks that read or replace the payload, so it sees the bytes that go out.
  app.addHook('onSend', (request, reply, payload, done) => {
    const req = request.raw
    // Nothing more is coming once the parser has the whole request or its reader had it all.
    const unread = hasBody(request) && !req.complete && !req.readableEnded && !req.destroyed
    // A streamed answer (a list) has no fixed length to send first.
    if (!unread || !closesConnection(request, reply) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
      done(null, payload)
      return
    }
    const socket = req.socket
    const answer = new PassThrough()
    answer.write(payload)
    const stop = (): void => {
      if (lingering.get(socket) !== stop) return
      lingering.delete(socket)
      clearTimeout(timer)
      req.off('end', stop).off('close', stop).off('error', stop)
      answer.end()
    }
    const timer = setTimeout(stop, LINGER_MS)
    lingering.set(socket, stop)
    // 'error' too: an aborted request emits one, which would otherwise be thrown.
    req.on('end', stop).on('close', stop).on('error', stop)
    req.resume()
    reply.header('content-length', Buffer.byteLength(payload))
    done(null, answer)
  })
}, { name: 'ponte-lingering-close' })
