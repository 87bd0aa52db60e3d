// What each route answers, as the wire has it: the success body, and every error as RFC 9457
// problem details under application/problem+json (plugins/problems.ts builds them all), with
// the headers Ponte sends. Routes take their `response` from here, so the OpenAPI document
// cannot drift from what the handlers and hooks do.
import Type, { type TSchema } from 'typebox'

export const PROBLEM_JSON = 'application/problem+json'
const ProblemRef = { $ref: 'Problem#' }

/** The per-key budget's state, on the answers of requests with a valid key while a limit is set (plugins/rate-limit.ts). */
const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': Type.String({ pattern: '^[0-9]+$', description: 'Requests a minute this API key may make.' }),
  'x-ratelimit-remaining': Type.String({ pattern: '^[0-9]+$', description: 'Requests left in the current minute.' }),
  'x-ratelimit-reset': Type.String({ pattern: '^[0-9]+$', description: 'Seconds until the budget is full again.' })
}

/** On every response (plugins/request-id.ts and app.ts), and the rate limit's where it applies. */
const COMMON_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'x-request-id': Type.String({ pattern: '^[A-Za-z0-9._:-]{1,128}$', description: 'The caller\'s X-Request-Id when it is a safe token (1–128 of A–Z a–z 0–9 . _ : -), else a UUID Ponte made; on every log line of the request.' }),
  'ponte-interface-version': Type.String({ description: 'Version of the interface served.' })
}
/** On the answers of writes that accept fields they do not store (services/stored.ts). */
const WRITE_HEADERS = {
  ...COMMON_HEADERS,
  'ponte-ignored-fields': Type.String({ description: 'Request fields accepted but not stored by this installation (comma-separated): fields its mapping does not map, or declares ignored (write.ignore). Absent when every field sent was stored.' }),
  'ponte-ignored-declared': Type.String({ description: 'Of the fields in Ponte-Ignored-Fields, those the mapping declares ignored (write.ignore), comma-separated; the others it does not map for writing. Absent when none.' })
}
const REPLAYED_HEADERS = {
  ...WRITE_HEADERS,
  'idempotent-replayed': Type.String({ enum: ['true'], description: 'Present when this is the stored answer to an earlier request with the same Idempotency-Key.' })
}
const RETRY_AFTER = { 'retry-after': Type.String({ pattern: '^[0-9]+$', description: 'Seconds to wait before retrying.' }) }

const ERRORS: Record<number, string> = {
  400: 'Invalid input: a parameter, the body or an id is malformed, unknown or out of range (`errors[]` names each).',
  401: 'No API key, or not a valid one.',
  403: 'The API key may only read (scope `read`).',
  404: 'No such record (or, for /availability, availability is not mapped here); on a write, `errors[]` names `/params/id`.',
  409: 'Conflict: the slot is taken, the state move is not allowed, the database already holds the key, or a request with this Idempotency-Key is still running (`errors[]` names each field concerned).',
  413: 'The body is larger than Ponte reads (64 KB).',
  415: 'The body is not JSON in UTF-8, or is compressed.',
  422: 'This Idempotency-Key was already used with a different request (`errors[]` names the header).',
  429: 'Over the per-key rate limit; see Retry-After.',
  501: 'The mapping of this installation does not say how to write this, or a field would not read back as sent (`errors[]` names each field).',
  503: 'The clinic database is unavailable, or this instance is shutting down (or, with an Idempotency-Key, the shared store is unreachable); see Retry-After.',
  504: 'The clinic database did not answer in time.'
}
const WITH_RETRY_AFTER = new Set([409, 429, 503])
const WWW_AUTHENTICATE = { 'www-authenticate': Type.String({ pattern: '^Bearer ', description: 'How to authenticate: `Authorization: Bearer <key>` (or `X-API-Key: <key>`).' }) }

function problem (status: number, idempotent: boolean): Record<string, unknown> {
  return {
    description: ERRORS[status],
    headers: {
      ...(idempotent ? REPLAYED_HEADERS : COMMON_HEADERS),
      ...(WITH_RETRY_AFTER.has(status) ? RETRY_AFTER : {}),
      ...(status === 401 ? WWW_AUTHENTICATE : {})
    },
    content: { [PROBLEM_JSON]: { schema: ProblemRef } }
  }
}

/** A named resource (a schema with $id, registered by plugins/openapi.ts) by reference, so the document names it. */
function named (schema: TSchema): Record<string, unknown> {
  const s = schema as { $id?: string, type?: string, items?: { $id?: string } }
  if (typeof s.$id === 'string') return { $ref: `${s.$id}#` }
  if (s.type === 'array' && typeof s.items?.$id === 'string') return { ...schema, items: { $ref: `${s.items.$id}#` } }
  return { ...schema }
}

/** What a JSON success answer carries besides the common headers: a write's ignored fields, a keyed create's replay mark too. */
export type AnswerKind = 'read' | 'write' | 'create'

const HEADERS_OF: Record<AnswerKind, Record<string, unknown>> = { read: COMMON_HEADERS, write: WRITE_HEADERS, create: REPLAYED_HEADERS }

/** A JSON success body; `example` is what the document shows (validated against the schema by the linter). */
export function jsonBody (schema: TSchema, description: string, example: unknown, kind: AnswerKind = 'read'): Record<string, unknown> {
  return { description, headers: HEADERS_OF[kind], content: { 'application/json': { schema: named(schema), example } } }
}

/** A plain-text success body (the PATCH state/time answers). */
export function textBody (description: string, example: string): Record<string, unknown> {
  return { description, headers: COMMON_HEADERS, content: { 'text/plain': { schema: Type.String(), example } } }
}

type Kind = 'list' | 'detail' | 'write' | 'create'

/** The error statuses a route of this kind can answer (problems.ts, auth, rate limit, drain, database). */
export function errorStatuses (kind: Kind, extra: number[] = []): number[] {
  const base = [400, 401, 429, 503, 504]
  const more = kind === 'list' ? [] : kind === 'detail' ? [404] : kind === 'write' ? [403, 404, 409, 413, 415, 501] : [403, 404, 409, 413, 415, 422, 501]
  return [...new Set([...base, ...more, ...extra])].sort((a, b) => a - b)
}

/** `response` for a route: its success answer plus its problem answers. */
export function responses (ok: Record<string, unknown>, kind: Kind, extra: number[] = []): Record<number, unknown> {
  const out: Record<number, unknown> = { 200: ok }
  for (const status of errorStatuses(kind, extra)) out[status] = problem(status, kind === 'create')
  return out
}
