// The one place where errors become HTTP responses: RFC 9457 problem details, with no SQL,
// driver message or stack trace ever reaching the caller. Three ways in, one body builder:
// the error handler (routes, hooks, body parser, validation), fastify's `frameworkErrors`
// (the router's own refusals) and `clientErrorHandler` (what Node's HTTP parser refuses before
// there is a request at all, answered on the raw socket after the answers due before it).
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify'
import { PonteError, type FieldIssue } from '../errors.js'
import { safeError } from '../logging.js'
import { stopLingering } from './lingering-close.js'
import { afterAnswers } from './pipelining.js'

export const PROBLEM_TYPE_BASE = 'https://ponte.dev/problems/'

export interface ProblemBody {
  type: string
  title: string
  status: number
  detail?: string
  instance?: string
  errors?: FieldIssue[]
}

interface Problem { body: ProblemBody, headers: Record<string, string> }

function problem (type: string, title: string, status: number, detail: string, errors?: FieldIssue[], headers: Record<string, string> = {}): Problem {
  return { body: { type: PROBLEM_TYPE_BASE + type, title, status, detail, ...(errors ? { errors } : {}) }, headers }
}

export function sendProblem (reply: FastifyReply, request: FastifyRequest, body: ProblemBody, headers: Record<string, string> = {}): FastifyReply {
  // The request id too: a refusal raised before any hook ran (the router's) still carries it.
  return reply.code(body.status).header('x-request-id', request.id).headers(headers).type('application/problem+json')
    .send(JSON.stringify({ ...body, instance: request.url }))
}

/**
 * A complete HTTP/1.1 response for a socket Node's parser gave up on: there is no request to
 * answer through fastify, and the connection cannot be trusted for another one.
 */
export function rawProblem ({ body, headers }: Problem): string {
  const json = JSON.stringify(body)
  const lines = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)
  ]
  return `${lines.join('\r\n')}\r\n\r\n${json}`
}

// A JSON pointer token (RFC 6901): `a/b` is `a~1b`.
const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

// A missing or unexpected key is an error about that key, so the path names it.
function fieldOf (keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'required') return `/${pointer(String(params.missingProperty ?? ''))}`
  if (keyword === 'additionalProperties') return `/${pointer(String(params.additionalProperty ?? ''))}`
  return ''
}

/** Fastify's own client errors (bad JSON, body too large, unsupported media type) keep their status. */
const FRAMEWORK_TYPES: Record<number, [string, string]> = {
  413: ['payload-too-large', 'Payload too large'],
  415: ['unsupported-media-type', 'Unsupported media type']
}

/** What the caller is told about an error, whoever raised it. */
export function problemOf (error: unknown, request: FastifyRequest): Problem {
  if (error instanceof PonteError) {
    const errors = 'errors' in error && Array.isArray(error.errors) && error.errors.length > 0 ? error.errors as FieldIssue[] : undefined
    if (error.status >= 500) request.log.warn({ err: safeError(error.cause ?? error), type: error.type }, error.message)
    return { body: { type: PROBLEM_TYPE_BASE + error.type, title: error.title, status: error.status, detail: error.message, ...(errors ? { errors } : {}) }, headers: error.headers }
  }
  const fe = error as FastifyError
  if (fe.validation) {
    const part = fe.validationContext ?? 'request'
    const errors = fe.validation.map((v) => ({
      path: `/${part}${v.instancePath}${fieldOf(v.keyword, v.params as Record<string, unknown>)}`,
      message: v.message ?? 'is invalid'
    }))
    return problem('invalid-input', 'Invalid input', 400, `Invalid ${part}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, errors)
  }
  if (fe.code === 'FST_ERR_BAD_URL') return problem('invalid-input', 'Invalid input', 400, 'The path is not valid percent-encoded UTF-8.')
  if (fe.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // Every path parameter of the interface is an id; maxParamLength (app.ts) is their longest.
    return problem('invalid-input', 'Invalid input', 400, 'An id in the path is longer than any id Ponte accepts.', [{ path: '/params', message: 'is too long' }])
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    // The media type alone, cut short: the header is the caller's text, of any length.
    const type = String(request.headers['content-type'] ?? '').split(';')[0].trim().slice(0, 100)
    return problem('unsupported-media-type', 'Unsupported media type', 415, `Content-Type "${type}" is not accepted: send the body as application/json.`, [{ path: '/headers/content-type', message: 'must be application/json' }])
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const [type, title] = FRAMEWORK_TYPES[fe.statusCode] ?? ['invalid-input', 'Bad request']
    return problem(type, title, fe.statusCode, fe.message)
  }
  request.log.error({ err: safeError(error) }, 'unhandled error')
  return problem('internal', 'Internal error', 500, 'Something went wrong inside Ponte; the log has the details.')
}

/** What Node's HTTP parser refused, by its error code. */
function clientProblem (code: string | undefined): Problem {
  if (code === 'HPE_HEADER_OVERFLOW') return problem('headers-too-large', 'Request headers too large', 431, 'The request line and headers are larger than Ponte reads (16 KB in all).')
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problem('request-timeout', 'Request timeout', 408, 'The request did not arrive in full in time.')
  return problem('malformed-request', 'Malformed request', 400, 'The request is not valid HTTP/1.1.')
}

/**
 * Fastify factory options that route the router's and the HTTP parser's refusals through the
 * same problem bodies. `headers` go on every such answer (the interface version).
 */
export function frameworkProblemOptions (headers: Record<string, string>): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors (error, request, reply) {
      const { body, headers: own } = problemOf(error, request)
      sendProblem(reply, request, body, { ...headers, ...own })
    },
    clientErrorHandler (this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
      // A reset socket has nobody left to answer.
      if (err.code === 'ECONNRESET' || socket.destroyed) return
      // The code only: the error carries the raw bytes received (keys, patients' data).
      this.log.debug({ code: err.code }, 'client error')
      // The refused bytes may be the rest of a body whose request is already answered.
      stopLingering(socket as Socket)
      const { body, headers: own } = clientProblem(err.code)
      // Answers to requests that came before the refused bytes go out first, then this one.
      afterAnswers(socket as Socket, (unanswered) => {
        if (unanswered && socket.writable) socket.end(rawProblem({ body, headers: { ...headers, ...own } }))
        // The parser cannot go on with this connection; do not wait long for the client to close it.
        setTimeout(() => socket.destroy(), 1000).unref()
      })
    }
  }
}

export default fp(async function problems (app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | PonteError | Error, request, reply) => {
    const { body, headers } = problemOf(error, request)
    return sendProblem(reply, request, body, headers)
  })
}, { name: 'ponte-problems' })
