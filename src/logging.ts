// Structured logs without patient data, by allow-list: whatever a caller puts in a path,
// a parameter, a header or a malformed packet, a log line holds only what is named here.
//  - a request: its method, its route pattern ('/clients/:id'), path ids that look like ids,
//    and the query parameters known to hold nothing personal; every other parameter is
//    counted, never named. No URL, header or body, ever.
//  - an error: its type, code, number, and message and stack with quoted values, e-mails
//    and long digit runs (phones, CPFs) cut out; nothing else it carries (a malformed
//    request's `rawPacket` holds the API key and whatever the caller sent).
// pino's redact stays as a second line of defence for fields logged by name.
import type { FastifyRequest } from 'fastify'
import type { LogFn, Logger } from 'pino'

/** Query parameters that hold no personal data, each with the shape its value must have to be logged. */
const SAFE_QUERY: Record<string, (value: string) => boolean> = {
  start: isDateLike,
  end: isDateLike,
  location: looksLikeId,
  service: looksLikeId,
  professional: looksLikeId,
  specialty: looksLikeId,
  healthInsurance: looksLikeId,
  plan: looksLikeId,
  state: (v) => /^[A-Za-z_]{1,20}$/.test(v),
  minimal: isFlag,
  enabled: isFlag,
  limit: isCount,
  offset: isCount
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
/** Logged in place of a value that does not have the shape of what may be logged. */
export const WITHHELD = '[withheld]'
/** Logged in place of the path of a request no route matched. */
export const UNMATCHED = '[unmatched]'

/**
 * An id as records have them, short and with few digits, which a phone (8+ digits), a CPF
 * (11), a name (spaces, or no digit at all) or an e-mail ('@') never is.
 */
export function looksLikeId (value: string): boolean {
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(value)) return false
  const digits = value.replace(/\D/g, '').length
  return digits >= 1 && digits <= 7
}

function isDateLike (v: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)
}

function isFlag (v: string): boolean {
  return v === 'true' || v === 'false'
}

function isCount (v: string): boolean {
  return /^\d{1,7}$/.test(v)
}

/** What a request line says about the request. */
export function requestSummary (request: Partial<FastifyRequest>): Record<string, unknown> {
  // The request id is already on the line (the request logger's binding).
  const out: Record<string, unknown> = { method: METHODS.has(String(request.method)) ? request.method : WITHHELD }
  const route = request.is404 === true ? undefined : request.routeOptions?.url
  out.route = typeof route === 'string' && route !== '' ? route : UNMATCHED
  if (out.route !== UNMATCHED && request.params && typeof request.params === 'object') {
    const params: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.params as Record<string, unknown>)) {
      params[name] = typeof value === 'string' && looksLikeId(value) ? value : WITHHELD
    }
    if (Object.keys(params).length > 0) out.params = params
  }
  const url = typeof request.url === 'string' ? request.url : ''
  const q = url.indexOf('?')
  if (q >= 0) {
    const query: Record<string, string> = {}
    let others = 0
    // URLSearchParams never throws, whatever the encoding; a repeated name is counted past its first.
    for (const [name, value] of new URLSearchParams(url.slice(q + 1))) {
      const shape = Object.hasOwn(SAFE_QUERY, name) ? SAFE_QUERY[name] : undefined
      if (shape === undefined || name in query) { others++; continue }
      query[name] = shape(value) ? value : WITHHELD
    }
    if (Object.keys(query).length > 0) out.query = query
    if (others > 0) out.otherParams = others
  }
  return out
}

/** What every rule of scrub needs: a quote, an '@' or a digit. */
const MAY_NEED_SCRUB = /['"@\d]/

/** Quoted values, e-mails and runs of 8+ digits (however punctuated) cut out of free text. */
function scrub (text: string): string {
  // Most messages ('incoming request', 'request completed') have nothing any rule below cuts:
  // no quote, no '@', no digit. They are returned as they are, without four regular expressions.
  if (!MAY_NEED_SCRUB.test(text)) return text
  return text
    .replace(/'[^']*'/g, "'…'")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/[^\s@'"<>()]+@[^\s@'"<>()]+/g, '…@…')
    .replace(/\+?\d[\d\s().\-/]*\d/g, (run) => run.replace(/\D/g, '').length >= 8 ? '…' : run)
}

/**
 * An error as it may be logged: type, code, number, and scrubbed message and stack. Database
 * messages quote the values they choked on ("Conversion failed when converting the varchar
 * value 'Maria …'"), and a value may be a patient's. Takes an error or an already safe
 * object (the same rules again: idempotent), and keeps nothing else it carries.
 */
export function safeError (err: unknown): SafeError {
  if (err === null || typeof err !== 'object') return { type: 'NonError', message: '[non-error value]', stack: '' }
  const e = err as { name?: unknown, type?: unknown, code?: unknown, number?: unknown, message?: unknown, stack?: unknown }
  const word = (x: unknown) => typeof x === 'string' && /^[\w.:-]{1,60}$/.test(x) ? x : undefined
  const out: SafeError = {
    type: word(err instanceof Error ? e.name : e.type) ?? 'Error',
    message: typeof e.message === 'string' ? scrub(e.message) : '',
    stack: typeof e.stack === 'string' ? scrub(e.stack) : ''
  }
  const code = typeof e.code === 'number' ? e.code : word(e.code)
  if (code !== undefined) out.code = code
  if (typeof e.number === 'number') out.number = e.number
  return out
}

export type SafeError = { type: string, message: string, stack: string, code?: string | number, number?: number } & Record<string, unknown>

export const redactPaths = [
  'req.headers', 'req.body', 'req.raw', 'err.rawPacket',
  '*.name', '*.phone', '*.allPhones', '*.cpf', '*.email', '*.birthday',
  'body.name', 'body.phone', 'body.cpf', 'body.email', 'body.birthday'
]

export function loggerOptions (level: string) {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      req: requestSummary,
      res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
      err: safeError
    },
    hooks: {
      // Messages are free text too (a framework may put a URL or an error message there).
      logMethod (this: Logger, args: Parameters<LogFn>, method: LogFn) {
        method.apply(this, args.map((a) => typeof a === 'string' ? scrub(a) : a) as Parameters<LogFn>)
      }
    }
  }
}
