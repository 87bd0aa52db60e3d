// CAPTURE_DIR: records each request the caller makes and Ponte's answer, as JSON lines, for
// `ponte replay` (redact.ts says what is kept). Keys and headers are never recorded. Register
// with `app.register(capture, { dir })`; without a dir it does nothing.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { createWriteStream, mkdirSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { Anonymizer, type Role } from '../fixtures/anonymize.js'
import { redactResponse, redactUrl, type Exchange } from './redact.js'

export interface CaptureOptions { dir?: string }

const UNRECORDED = /^\/(health|ready|metrics|docs|openapi\.json)(\/|\?|$)/
const BODY_ROLES: Record<string, Role> = { name: 'name', phone: 'phone', email: 'email', cpf: 'cpf', birthday: 'birthday' }

declare module 'fastify' {
  interface FastifyRequest { ponteCaptureBody?: unknown }
}

export default fp(async function capture (app: FastifyInstance, options: CaptureOptions) {
  if (!options.dir) return
  mkdirSync(options.dir, { recursive: true })
  const salt = randomBytes(16).toString('hex')
  const file = join(options.dir, `capture-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`)
  const out = createWriteStream(file, { flags: 'a' })
  out.write(JSON.stringify({ capture: 1, salt }) + '\n')
  app.addHook('onClose', async () => { await new Promise((resolve) => out.end(resolve)) })
  const fake = new Anonymizer()
  /** Values the caller sent, by letters and digits, → what the capture says was sent instead. */
  const sent = new Map<string, unknown>()
  // A number (CPF, phone) by its digits alone: sent masked, it is answered as stored.
  const key = (v: unknown) => { const s = String(v).toLowerCase(); return /^[\d\s().+\-/]*$/.test(s) ? s.replace(/\D/g, '') : s.replace(/[^\p{L}\p{N}@.]/gu, '') }
  let seq = 0

  // The body as sent, with made-up personal values in place of the real ones.
  app.addHook('preHandler', async (request) => {
    if (!request.body || typeof request.body !== 'object' || !/\/clients(\/|$)/.test(request.url.split('?')[0])) {
      request.ponteCaptureBody = request.body
      return
    }
    request.ponteCaptureBody = Object.fromEntries(Object.entries(request.body).map(([k, v]) => {
      const role = BODY_ROLES[k]
      if (!role || typeof v !== 'string') return [k, v]
      const replaced = fake.value(role, v)
      sent.set(key(v), replaced)
      return [k, replaced]
    }))
  })

  app.addHook('onSend', async (request, reply, payload) => {
    if (UNRECORDED.test(request.url.replace(/^\/[^/]*(?=\/(health|ready))/, ''))) return payload
    const type = String(reply.getHeader('content-type') ?? '')
    // A Buffer is text too: an answer app.ts encoded (encodedOnce), or one replayed for an Idempotency-Key.
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined
    let response: unknown = text
    if (text !== undefined && type.includes('json')) {
      try { response = JSON.parse(text) } catch { response = text }
    }
    const { url, replayable } = redactUrl(request.url)
    const exchange: Exchange = {
      seq: ++seq,
      method: request.method,
      url,
      replayable,
      keyed: request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined,
      ...(request.ponteCaptureBody !== undefined ? { body: request.ponteCaptureBody } : {}),
      status: reply.statusCode,
      contentType: type.split(';')[0],
      response: redactResponse(salt, request.url, response, (v) => typeof v === 'string' && sent.has(key(v)) ? inShapeOf(v, sent.get(key(v))) : v)
    }
    out.write(JSON.stringify(exchange) + '\n')
    return payload
  })
}, { name: 'ponte-capture' })

/**
 * The made-up value in the stored form the answer shows (a CPF sent masked, answered as digits):
 * a replay sends the made-up value and gets it back in that form too.
 */
function inShapeOf (answered: string, made: unknown): unknown {
  const digits = String(made).replace(/\D/g, '')
  if (!/^[\d\s().+\-/]*$/.test(answered) || answered.replace(/\D/g, '').length !== digits.length) return made
  let i = 0
  return answered.replace(/\d/g, () => digits[i++])
}
