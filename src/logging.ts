// Structured logs without patient data: names, phones, CPF and e-mail never appear in clear.
// Request URLs keep their path and the names of their query parameters only.
import type { FastifyRequest } from 'fastify'

/** Query parameters whose values may identify a patient. */
const PERSONAL_QUERY = new Set(['term', 'client', 'phone', 'cpf', 'email', 'name'])

export function redactUrl (url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const params = new URLSearchParams(url.slice(q + 1))
  const kept = [...params.entries()].map(([k, v]) => `${k}=${PERSONAL_QUERY.has(k) ? '[redacted]' : encodeURIComponent(v)}`)
  return `${url.slice(0, q)}?${kept.join('&')}`
}

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  '*.name', '*.phone', '*.allPhones', '*.cpf', '*.email', '*.birthday',
  'body.name', 'body.phone', 'body.cpf', 'body.email', 'body.birthday'
]

export function loggerOptions (level: string) {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      // Only method, path and id: headers (keys) and bodies (patients) never reach the log.
      req (request: Partial<FastifyRequest>) {
        return { method: request.method, url: typeof request.url === 'string' ? redactUrl(request.url) : undefined, reqId: request.id }
      }
    }
  }
}

/**
 * An error as it may be logged. Database messages quote the values they choked on
 * ("Conversion failed when converting the varchar value 'Maria …'"), and a value may be a
 * patient's: quoted text is cut out, the rest (type, code, number, stack frames) is kept.
 */
export function safeError (err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: '[non-error value]' }
  const scrub = (s: string | undefined) => s?.replace(/'[^']*'/g, "'…'").replace(/"[^"]*"/g, '"…"')
  const e = err as Error & { code?: unknown, number?: unknown }
  return { type: e.name, message: scrub(e.message), code: e.code, number: e.number, stack: scrub(e.stack) }
}
