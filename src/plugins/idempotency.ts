// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) for the routes that opt in.
//
// Design: register this plugin once, with the store, in the authenticated scope (after
// requireApiKey); it is wrapped in fastify-plugin, so its hooks belong to that scope and run for
// every route in it. They do nothing unless the route says `config: { idempotent: true }` and
// the request carries an Idempotency-Key header, so a route opts in with that one line and a
// POST without the header works exactly as before.
//
//   preValidation (after auth and body parsing, before schema validation and the handler):
//     check the key (1–255 characters; a quoted sf-string as in the draft, or a bare value),
//     fingerprint the request (method, URL, SHA-256 of the canonical JSON of the parsed body) and
//     store.begin() under scope = SHA-256 of the presented API key (the key itself is never
//     stored). new → carry on; replay → send the stored status, headers and body plus
//     `idempotent-replayed: true`; in-flight → 409; mismatch → 422 (both problem+json).
//   onSend: the response of a claimed request is stored (2xx–4xx: same input, same answer; the
//     schema-validation 400 included) or, for a 5xx, the claim is released so a retry runs again.
//   onResponse: a claim still open here (onSend never saw it) is released.
import { IGNORED_DECLARED_HEADER, IGNORED_FIELDS_HEADER } from '../services/stored.js'
import fp from 'fastify-plugin'
import { sha256 } from '../config.js'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { presentedKey } from './auth.js'
import { asList } from './hook-list.js'
import { IdempotencyConflictError, IdempotencyMismatchError, InvalidInputError, KeyStoreUnavailableError } from '../errors.js'
import type { KeyStore, StoredResponse } from '../idempotency/store.js'
import type { PonteMetrics } from '../metrics/registry.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour the Idempotency-Key request header on this route (plugins/idempotency.ts). */
    idempotent?: boolean
  }
}

export interface IdempotencyOptions {
  store: KeyStore
  /** Counts new claims, replays, in-flight conflicts and mismatches. */
  metrics?: PonteMetrics
}

export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'idempotent-replayed'
export const MAX_KEY_LENGTH = 255
/** Response headers remembered and replayed along with status and body. */
export const REPLAYED_RESPONSE_HEADERS = ['content-type', 'content-language', 'content-location', 'location', 'etag', 'last-modified', 'link', IGNORED_FIELDS_HEADER, IGNORED_DECLARED_HEADER]

const HEADER_PATH = `/headers/${IDEMPOTENCY_HEADER}`

/**
 * The key from the header value: an RFC 8941 sf-string (`"abc"`, as the draft specifies) is
 * unquoted; anything else is taken as it is (trimmed), since many clients send bare UUIDs.
 */
export function parseIdempotencyKey (raw: string | string[]): string {
  if (Array.isArray(raw)) throw new InvalidInputError('Send one Idempotency-Key header, not several.', [{ path: HEADER_PATH, message: 'must appear once' }])
  let key = raw.trim()
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const unquoted = unquoteSfString(key.slice(1, -1))
    if (unquoted === undefined) {
      throw new InvalidInputError('The Idempotency-Key header is not a valid quoted string.', [{ path: HEADER_PATH, message: 'must be a valid quoted string' }])
    }
    key = unquoted
  }
  if (key === '') throw new InvalidInputError('The Idempotency-Key header is empty.', [{ path: HEADER_PATH, message: 'must not be empty' }])
  if (key.length > MAX_KEY_LENGTH) {
    throw new InvalidInputError(`The Idempotency-Key header is longer than ${MAX_KEY_LENGTH} characters.`, [{ path: HEADER_PATH, message: `must have at most ${MAX_KEY_LENGTH} characters` }])
  }
  return key
}

/** The inside of an sf-string: backslash-quote and backslash-backslash are its only escapes; a bare quote is invalid. */
function unquoteSfString (inner: string): string | undefined {
  let out = ''
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]
    if (c === '"') return undefined
    if (c === '\\') {
      const next = inner[i + 1]
      if (next !== '"' && next !== '\\') return undefined
      out += next
      i++
    } else {
      out += c
    }
  }
  return out
}

/**
 * JSON with object keys sorted at every level, so key order and whitespace do not matter.
 * Written from a list of what is left to write, not by recursion: a body nested thousands of
 * levels deep (refused later by validation) must not overflow the stack here.
 */
export function canonicalJson (value: unknown): string {
  const out: string[] = []
  // Last in, first out: a container pushes its closing bracket, then its members in reverse.
  const todo: Array<{ text: string } | { value: unknown }> = [{ value }]
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if ('text' in next) { out.push(next.text); continue }
    const v = next.value
    if (v === undefined || v === null) {
      out.push('null')
    } else if (Buffer.isBuffer(v)) {
      out.push(JSON.stringify({ $bytes: v.toString('base64') }))
    } else if (Array.isArray(v)) {
      todo.push({ text: ']' })
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] })
        if (i > 0) todo.push({ text: ',' })
      }
      todo.push({ text: '[' })
    } else if (typeof v === 'object') {
      const keys = Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      todo.push({ text: '}' })
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push({ value: (v as Record<string, unknown>)[keys[i]] }, { text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` })
      }
      todo.push({ text: '{' })
    } else {
      out.push(JSON.stringify(v) ?? 'null')
    }
  }
  return out.join('')
}

/** What makes two requests "the same request" for one key: method, URL and parsed body. */
export function requestFingerprint (method: string, url: string, body: unknown): string {
  return sha256(canonicalJson({ method: method.toUpperCase(), url, body: sha256(canonicalJson(body)) }))
}

interface Claim { scope: string, key: string, lease: string }

function selectedHeaders (reply: FastifyReply): StoredResponse['headers'] {
  const headers: StoredResponse['headers'] = {}
  for (const name of REPLAYED_RESPONSE_HEADERS) {
    const v = reply.getHeader(name)
    if (v === undefined) continue
    headers[name] = Array.isArray(v) ? v.map(String) : String(v)
  }
  return headers
}

export default fp(async function idempotency (app: FastifyInstance, options: IdempotencyOptions) {
  const { store } = options
  const claims = new WeakMap<FastifyRequest, Claim>()

  const preValidation = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.headers[IDEMPOTENCY_HEADER]
    if (raw === undefined) return
    const key = parseIdempotencyKey(raw)
    // Auth (onRequest) has already accepted this key; without one there is nothing to scope by.
    const apiKey = presentedKey(request.headers)
    const scope = sha256(apiKey ?? '')
    // Outside the try: only the store failing is "store unavailable".
    const fingerprint = requestFingerprint(request.method, request.url, request.body)
    let result: Awaited<ReturnType<KeyStore['begin']>>
    try {
      result = await store.begin(scope, key, fingerprint)
    } catch (err) {
      // The store is down (Redis) or locked past its bound (SQLite): without it a retry could
      // run twice, so refuse the keyed request; requests without a key do not need the store.
      options.metrics?.idempotency.inc({ result: 'store-unavailable' })
      throw err instanceof KeyStoreUnavailableError ? err : new KeyStoreUnavailableError(err)
    }
    options.metrics?.idempotency.inc({ result: result.kind })
    switch (result.kind) {
      case 'new':
        claims.set(request, { scope, key, lease: result.lease })
        return
      case 'replay':
        reply.code(result.response.status).headers(result.response.headers)
          .header(REPLAYED_HEADER, 'true').send(result.response.body)
        return reply
      case 'in-flight':
        throw new IdempotencyConflictError('A request with this Idempotency-Key is still being processed; retry it in a moment.', [{ path: HEADER_PATH, message: 'is in use by a request still being processed' }])
      case 'mismatch':
        throw new IdempotencyMismatchError('This Idempotency-Key was already used for a different request; use a new key for a new request.', [{ path: HEADER_PATH, message: 'was already used for a different request' }])
    }
  }

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(request)
    if (claim === undefined) return payload
    claims.delete(request)
    try {
      const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : payload == null ? '' : undefined
      if (reply.statusCode >= 500 || body === undefined) {
        if (body === undefined) request.log.warn('idempotency: a streamed response cannot be remembered; key released')
        await store.release(claim.scope, claim.key, claim.lease)
      } else {
        await store.complete(claim.scope, claim.key, { status: reply.statusCode, headers: selectedHeaders(reply), body }, claim.lease)
      }
    } catch (err) {
      // The response itself is fine; only remembering it failed. The claim lapses (abandonAfterMs).
      request.log.error({ err }, 'idempotency: could not record the response')
    }
    return payload
  }

  const onResponse = async (request: FastifyRequest) => {
    const claim = claims.get(request)
    if (claim === undefined) return
    claims.delete(request)
    try { await store.release(claim.scope, claim.key, claim.lease) } catch (err) { request.log.error({ err }, 'idempotency: could not release a key') }
  }

  // Only routes that opt in carry the hooks: every other request pays nothing for them.
  app.addHook('onRoute', (route) => {
    if ((route.config as { idempotent?: boolean } | undefined)?.idempotent !== true) return
    route.preValidation = [...asList(route.preValidation), preValidation]
    route.onSend = [...asList(route.onSend), onSend]
    route.onResponse = [...asList(route.onResponse), onResponse]
  })
}, { name: 'ponte-idempotency' })
