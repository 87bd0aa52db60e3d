// `ponte conformance`: the contract checks against a running installation, one line each
// and a summary; the exit code says whether every check passed.
import { CHECKS, type Context } from './checks.js'
import { httpSender, type Send } from './http.js'

export interface CheckResult { name: string, outcome: 'passed' | 'failed' | 'skipped', failures: string[] }
export interface ConformanceResults {
  passed: number
  failed: number
  skipped: number
  checks: CheckResult[]
  /** Per write route (`POST /clients`), the fields an answer said were accepted and not stored. */
  ignored: Record<string, string[]>
  /** Why each was not stored, per route and field: the mapping's `write.ignore`, or not mapped for writing. */
  why: Record<string, Record<string, 'write.ignore' | 'not mapped'>>
}

export interface ConformanceOptions {
  /** Real HTTP when given a base URL and key; the tests pass a sender of their own. */
  base?: string
  key?: string
  send?: Send
  writes: boolean
  today?: string
  /** The installation's `phone.defaultCountry` (default: read from its stored phones). */
  country?: string
}

const SHOWN = 5

export async function runConformance (o: ConformanceOptions, print?: (line: string) => void): Promise<ConformanceResults> {
  const ignored: Record<string, Set<string>> = {}
  const why: ConformanceResults['why'] = {}
  const sender = o.send ?? httpSender(o.base ?? '', o.key ?? '')
  // A pass that stored less than was sent must say so beside its count, not only in a header.
  const send: Send = async (method, path, body, headers) => {
    const reply = await sender(method, path, body, headers)
    if (method !== 'GET' && reply.status < 300 && (reply.ignored ?? []).length > 0) {
      const route = `${method} ${path.split('?')[0].replace(/\/[^/]*\d[^/]*(?=\/|$)/g, '/{id}')}`
      for (const f of reply.ignored ?? []) {
        (ignored[route] ??= new Set()).add(f);
        (why[route] ??= {})[f] = (reply.declared ?? []).includes(f) ? 'write.ignore' : 'not mapped'
      }
    }
    return reply
  }
  const c: Context = { send, lists: {}, today: o.today ?? new Date().toISOString().slice(0, 10), ...(o.country !== undefined ? { country: o.country } : {}) }
  const checks: CheckResult[] = []
  for (const check of CHECKS) {
    if (check.writes && !o.writes) continue
    const failures: string[] = []
    let outcome: CheckResult['outcome']
    try {
      const r = await check.run(c, (m) => { failures.push(m) })
      outcome = failures.length > 0 ? 'failed' : r === 'skipped' ? 'skipped' : 'passed'
    } catch (err) {
      failures.push(`could not run: ${(err as Error).message}`)
      outcome = 'failed'
    }
    checks.push({ name: check.name, outcome, failures })
    print?.(`${outcome === 'passed' ? '✓' : outcome === 'skipped' ? '-' : '✗'} ${check.name}${outcome === 'skipped' ? ' (skipped: nothing to check here)' : ''}`)
    for (const f of failures.slice(0, SHOWN)) print?.(`    ${f}`)
    if (failures.length > SHOWN) print?.(`    … and ${failures.length - SHOWN} more`)
  }
  const count = (x: CheckResult['outcome']) => checks.filter((k) => k.outcome === x).length
  const notStored = Object.fromEntries(Object.entries(ignored).map(([route, fields]) => [route, [...fields].sort()]))
  const results = { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), checks, ignored: notStored, why }
  // Exactly what the answers' Ponte-Ignored-Fields named, each with why (the checks send every optional field).
  const routes = Object.entries(notStored).map(([route, fields]) => `${route}: ${fields.map((f) => `${f} (${why[route]?.[f] ?? 'not mapped'})`).join(', ')}`)
  print?.(`${results.passed} passed, ${results.failed} failed, ${results.skipped} skipped${o.writes ? '' : ' (reads only; --writes to create and change data)'}${routes.length > 0 ? `; accepted and not stored: ${routes.join('; ')}` : ''}`)
  return results
}
