// The one place where errors become HTTP responses: RFC 9457 problem details, with no SQL,
// driver message or stack trace ever reaching the caller.
import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PonteError, type FieldIssue } from '../errors.js'
import { safeError } from '../logging.js'

export const PROBLEM_TYPE_BASE = 'https://ponte.dev/problems/'

interface ProblemBody {
  type: string
  title: string
  status: number
  detail?: string
  instance?: string
  errors?: FieldIssue[]
}

export function sendProblem (reply: FastifyReply, request: FastifyRequest, body: ProblemBody, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(body.status).headers(headers).type('application/problem+json')
    .send(JSON.stringify({ ...body, instance: request.url }))
}

// A missing or unexpected key is an error about that key, so the path names it.
function fieldOf (keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'required') return `/${String(params.missingProperty ?? '')}`
  if (keyword === 'additionalProperties') return `/${String(params.additionalProperty ?? '')}`
  return ''
}

export default fp(async function problems (app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | PonteError | Error, request, reply) => {
    if (error instanceof PonteError) {
      const errors = 'errors' in error && Array.isArray(error.errors) && error.errors.length > 0 ? error.errors as FieldIssue[] : undefined
      if (error.status >= 500) request.log.warn({ err: safeError(error.cause ?? error), type: error.type }, error.message)
      return sendProblem(reply, request, { type: PROBLEM_TYPE_BASE + error.type, title: error.title, status: error.status, detail: error.message, errors }, error.headers)
    }
    const fe = error as FastifyError
    if (fe.validation) {
      const part = fe.validationContext ?? 'request'
      const errors = fe.validation.map((v) => ({
        path: `/${part}${v.instancePath}${fieldOf(v.keyword, v.params as Record<string, unknown>)}`,
        message: v.message ?? 'is invalid'
      }))
      return sendProblem(reply, request, { type: PROBLEM_TYPE_BASE + 'invalid-input', title: 'Invalid input', status: 400, detail: `Invalid ${part}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, errors })
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type).
      const type = fe.statusCode === 413 ? 'payload-too-large' : fe.statusCode === 415 ? 'unsupported-media-type' : 'invalid-input'
      return sendProblem(reply, request, { type: PROBLEM_TYPE_BASE + type, title: fe.statusCode === 413 ? 'Payload too large' : 'Bad request', status: fe.statusCode, detail: fe.message })
    }
    request.log.error({ err: safeError(error) }, 'unhandled error')
    return sendProblem(reply, request, { type: PROBLEM_TYPE_BASE + 'internal', title: 'Internal error', status: 500, detail: 'Something went wrong inside Ponte; the log has the details.' })
  })

  app.setNotFoundHandler((request, reply) => sendProblem(reply, request, {
    type: PROBLEM_TYPE_BASE + 'not-found', title: 'Not found', status: 404, detail: `No route ${request.method} ${request.url.split('?')[0]}.`
  }))
}, { name: 'ponte-problems' })
