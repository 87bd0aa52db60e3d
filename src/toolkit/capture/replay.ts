// `ponte replay DIR --base URL`: sends a capture's requests again, in order, and says for
// each answer that differs which request, which JSON path, before and after.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Send } from '../conformance/http.js'
import { diff, redactResponse, type Difference, type Exchange } from './redact.js'

export interface ReplayResult { requests: number, same: number, different: number, skipped: number, differences: { seq: number, method: string, url: string, status?: [number, number], paths: Difference[] }[] }

export function readCapture (dir: string): { salt: string, exchanges: Exchange[] } {
  const files = readdirSync(dir).filter((f) => /^capture-.*\.jsonl$/.test(f)).sort()
  if (files.length === 0) throw new Error(`${dir}: no capture-*.jsonl files`)
  let salt = ''
  const exchanges: Exchange[] = []
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      const x = JSON.parse(line) as Exchange & { capture?: number, salt?: string }
      if (x.capture !== undefined) { salt ||= x.salt ?? ''; continue }
      exchanges.push(x)
    }
  }
  return { salt, exchanges }
}

export async function replay (dir: string, send: Send, print?: (line: string) => void): Promise<ReplayResult> {
  const { salt, exchanges } = readCapture(dir)
  const result: ReplayResult = { requests: exchanges.length, same: 0, different: 0, skipped: 0, differences: [] }
  for (const x of exchanges) {
    if (!x.replayable) { result.skipped++; continue }
    const r = await send(x.method as 'GET', x.url, x.body, x.keyed === false ? {} : undefined)
    const now = redactResponse(salt, x.url, typeof r.body === 'string' && r.contentType.includes('json') ? safeJson(r.body) : r.body)
    const paths = diff(x.response, now)
    const status: [number, number] | undefined = r.status !== x.status ? [x.status, r.status] : undefined
    if (!status && paths.length === 0) { result.same++; continue }
    result.different++
    result.differences.push({ seq: x.seq, method: x.method, url: x.url, status, paths })
    print?.(`✗ #${x.seq} ${x.method} ${x.url}${status ? `: status ${status[0]} → ${status[1]}` : ''}`)
    for (const p of paths.slice(0, 10)) print?.(`    ${p.path}: ${show(p.before)} → ${show(p.after)}`)
    if (paths.length > 10) print?.(`    … and ${paths.length - 10} more`)
  }
  print?.(`${result.requests} requests: ${result.same} the same, ${result.different} different, ${result.skipped} not replayable (a search term was hidden)`)
  return result
}

function show (v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v)
}

function safeJson (s: string): unknown {
  try { return JSON.parse(s) } catch { return s }
}
