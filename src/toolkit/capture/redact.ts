// What a capture keeps of an exchange, and how a replay compares with it. Personal values of
// clients (in /clients answers and in an appointment's `client`) become salted digests, so
// two runs compare equal when Ponte answered the same without the capture holding the value;
// search terms are hidden (such a request cannot be replayed); bodies sent to /clients carry
// made-up values (replayable), and the answers echoing them are digested from those.
import { createHash } from 'node:crypto'

export const PERSONAL = new Set(['name', 'description', 'phone', 'allPhones', 'cpf', 'email', 'birthday', 'image'])

export interface Exchange {
  seq: number
  method: string
  url: string
  /** false when the URL held a personal value that was hidden (a search term). */
  replayable: boolean
  /** Whether the request carried an API key (never the key itself). */
  keyed: boolean
  body?: unknown
  status: number
  contentType: string
  response: unknown
}

export function digest (salt: string, value: unknown): string {
  return `<personal ${createHash('sha256').update(salt).update(JSON.stringify(value)).digest('hex').slice(0, 12)}>`
}

/** The answer with every client's personal values digested. */
export function redactResponse (salt: string, url: string, body: unknown, substitute: (v: unknown) => unknown = (v) => v): unknown {
  const clientPath = /^(\/[^?]*)?\/clients(\/|\?|$)/.test(url)
  const walk = (x: unknown, inClient: boolean): unknown => {
    if (Array.isArray(x)) return x.map((y) => walk(y, inClient))
    if (x === null || typeof x !== 'object') return x
    return Object.fromEntries(Object.entries(x).map(([k, v]) => {
      if (inClient && PERSONAL.has(k)) return [k, digest(salt, Array.isArray(v) ? v.map(substitute) : substitute(v))]
      return [k, walk(v, inClient || k === 'client')]
    }))
  }
  return walk(body, clientPath)
}

/** A URL without personal query values (`term`), and whether it can still be replayed. */
export function redactUrl (url: string): { url: string, replayable: boolean } {
  const at = url.indexOf('?')
  if (at < 0) return { url, replayable: true }
  const params = new URLSearchParams(url.slice(at + 1))
  let replayable = true
  for (const k of [...params.keys()]) if (k === 'term') { params.set(k, 'redacted'); replayable = false }
  return { url: `${url.slice(0, at)}?${params.toString()}`, replayable }
}

export interface Difference { path: string, before: unknown, after: unknown }

/** Every JSON path where two answers differ (arrays by position). */
export function diff (before: unknown, after: unknown, path = '', out: Difference[] = [], limit = 50): Difference[] {
  if (out.length >= limit) return out
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= before.length || i >= after.length) { out.push({ path: `${path}[${i}]`, before: before[i], after: after[i] }); continue }
      diff(before[i], after[i], `${path}[${i}]`, out, limit)
    }
    return out
  }
  if (isObject(before) && isObject(after)) {
    for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) diff(before[k], after[k], path ? `${path}.${k}` : k, out, limit)
    return out
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ path: path || '(body)', before, after })
  return out
}

function isObject (x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x)
}
