// Requests pipelined on one connection (HTTP/1.1 lets a caller send several before the first
// answer) run one at a time, in the order they came. Node parses them all at once and hands
// each to the app at once, queueing only the answers; when an answer then closes the
// connection (a body the parser refused, `Connection: close`, shutdown), the answers queued
// behind it are never sent, though their requests ran: a POST /clients pipelined behind a
// refused body created its client, and the caller, never told, sent it again. So a request
// starts only when every answer before it on its connection is over, and if by then the
// connection is closing it does not run at all (RFC 9112 §9.6): unanswered, it is safe to retry.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'

/** One request of a connection, from its arrival until its answer is over. */
interface Turn {
  req: IncomingMessage
  res: ServerResponse
  /** The answer is finished or cut off. */
  over: boolean
  /** May it run? Undefined while answers before it are not over. */
  verdict?: boolean
  /** Told the verdict, when the request is already waiting for it. */
  told?: (run: boolean) => void
}

interface Line {
  /** Requests whose answers are not over, oldest first; the first has the turn. */
  waiting: Turn[]
  /** The latest request to arrive, kept after its answer is over while its body is still coming. */
  last?: Turn
  /** Node's parser refused the connection's bytes (problems.ts clientErrorHandler). */
  refused: boolean
  /** Run once the waiting list is empty. */
  drained?: () => void
}

const lines = new WeakMap<Socket, Line>()
const turns = new WeakMap<IncomingMessage, Turn>()

function decide (turn: Turn, run: boolean): void {
  if (turn.verdict !== undefined) return
  turn.verdict = run
  // A request that will not run has no answer to wait for.
  if (!run) turn.over = true
  turn.told?.(run)
}

/**
 * Removes the answers that are over from the front; then the next request runs, or, if the
 * connection is closing, none of those waiting does.
 */
function advance (socket: Socket, line: Line): void {
  for (;;) {
    while (line.waiting.length > 0 && line.waiting[0].over) line.waiting.shift()
    const next = line.waiting[0]
    if (next === undefined) {
      const drained = line.drained
      line.drained = undefined
      drained?.()
      return
    }
    if (socket.writable) { decide(next, true); return }
    for (const turn of line.waiting) decide(turn, false)
    // A request already running keeps its place until its answer is over.
    if (!next.over) return
  }
}

function arrive (req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket
  let line = lines.get(socket)
  if (line === undefined) {
    const created: Line = { waiting: [], refused: false }
    lines.set(socket, created)
    socket.once('close', () => { advance(socket, created) })
    line = created
  }
  const turn: Turn = { req, res, over: false }
  line.waiting.push(turn)
  line.last = turn
  turns.set(req, turn)
  const current = line
  res.once('close', () => {
    turn.over = true
    if (current.last === turn && req.complete) current.last = undefined
    advance(socket, current)
  })
  advance(socket, line)
}

/**
 * Runs `then` once every answer begun on this connection is over, for a refusal written on
 * the raw socket after them. `unanswered` is false when the refused bytes belong to a request
 * that already has its answer (the rest of a body refused early): a raw answer would be a second one.
 */
export function afterAnswers (socket: Socket, then: (unanswered: boolean) => void): void {
  const line = lines.get(socket)
  if (line === undefined) { then(true); return }
  if (line.refused) return
  line.refused = true
  const last = line.last
  const answered = last !== undefined && !last.req.complete && last.res.headersSent
  // A request whose body never arrived in full has no answer to wait for: the refusal is its answer.
  if (last !== undefined && !last.req.complete && !answered) {
    decide(last, false)
    last.over = true
  }
  line.drained = () => { then(!answered) }
  advance(socket, line)
}

export default fp(async function pipelining (app: FastifyInstance) {
  // Before fastify's own listener: every request is in line, the router's refusals too.
  app.server.prependListener('request', arrive)
  // Callback style, as every hook run on each request: no promise per hook. Registered first,
  // so nothing (auth, rate limit, clock) happens for a request before its turn.
  app.addHook('onRequest', (request, reply, done) => {
    const turn = turns.get(request.raw)
    // inject() requests have no connection and no turn.
    if (turn === undefined || turn.verdict === true) { done(); return }
    const go = (run: boolean): void => {
      if (!run) {
        request.log.info('not run: it was pipelined behind an answer that closed the connection')
        reply.hijack()
      }
      done()
    }
    if (turn.verdict === false) go(false)
    else turn.told = go
  })
}, { name: 'ponte-pipelining' })
