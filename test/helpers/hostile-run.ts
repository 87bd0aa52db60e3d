// Running hostile requests from outside: the sample installation in its own process on a real
// socket (a request that spins it forever cannot freeze the test: it is killed and restarted),
// requests written byte for byte on a fresh connection, a deadline on each, the SQLite file
// watched for changes, and every answer judged against the generic rules of issue 7.
import { fork, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { rmSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { INJECTIONS, type Expect, type Hostile } from './hostile.js'
import { childEnv } from './child-env.js'

// ---------- the server process ----------

interface Process { port: number, file: string, child: ChildProcess, exited: Promise<void> }

/**
 * A sample installation served by test/helpers/hostile-server.ts in a child process; its log
 * lines (at `logLevel`) go to `onLine`. `restart()` replaces a hung process by a fresh one
 * (fresh copy of the sample too).
 */
export class Hosted {
  private current!: Process
  private constructor (readonly mapping: string, private readonly options: { logLevel?: string, onLine?: (line: string) => void }) {}

  static async start (mapping: string, options: { logLevel?: string, onLine?: (line: string) => void } = {}): Promise<Hosted> {
    const hosted = new Hosted(mapping, options)
    hosted.current = await hosted.spawn()
    return hosted
  }

  get port (): number { return this.current.port }
  get file (): string { return this.current.file }

  private async spawn (): Promise<Process> {
    const child = fork(new URL('./hostile-server.ts', import.meta.url).pathname, [this.mapping], {
      execArgv: ['--import', 'tsx'],
      env: childEnv({ LOG_LEVEL: this.options.logLevel ?? 'silent' }),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc']
    })
    let stderr = ''
    child.stderr?.on('data', (c) => { stderr += String(c) })
    let partial = ''
    child.stdout?.on('data', (c) => {
      const lines = (partial + String(c)).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) this.options.onLine?.(line)
    })
    const exited = new Promise<void>((resolve) => child.once('exit', () => { if (partial) this.options.onLine?.(partial); resolve() }))
    const ready = await new Promise<{ port: number, file: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`hostile server did not start in 30 s: ${stderr}`)), 30_000)
      child.once('message', (m) => { clearTimeout(timer); resolve(m as { port: number, file: string }) })
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`hostile server exited (${code}): ${stderr}`)) })
    })
    return { ...ready, child, exited }
  }

  /** SIGKILL: a spinning event loop ignores everything else. Removes the sample copy it leaves. */
  async kill (): Promise<void> {
    const { child, exited, file } = this.current
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
    rmSync(dirname(file), { recursive: true, force: true })
  }

  async restart (): Promise<void> {
    await this.kill()
    this.current = await this.spawn()
  }

  /** Gracefully (the child closes the app on disconnect), by force after 3 s. */
  async stop (): Promise<void> {
    const { child, exited } = this.current
    if (child.connected) child.disconnect()
    const timer = setTimeout(() => { void this.kill() }, 3000)
    await exited
    clearTimeout(timer)
    await this.kill()
  }

  /** A JSON request with the test key, for finding data and for the contract pass. */
  async call (method: string, url: string, body?: unknown): Promise<{ status: number, body: any }> {
    const res = await fetch(`http://127.0.0.1:${this.port}${url}`, {
      method,
      headers: { authorization: 'Bearer test-key-0123456789abcdef', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5000)
    })
    const text = await res.text()
    let parsed: any
    try { parsed = JSON.parse(text) } catch { parsed = text }
    return { status: res.status, body: parsed }
  }
}

// ---------- one request on a raw socket ----------

export interface Answer { status: number, headers: Record<string, string>, text: string, ms: number }
export type Outcome = { answer: Answer } | { answer?: undefined, failure: 'timeout' | 'closed without an answer', ms: number }

export function bytesOf (h: Hostile): Buffer {
  if (h.raw) return h.raw
  const body = h.body === undefined ? undefined : Buffer.isBuffer(h.body) ? h.body : Buffer.from(h.body, 'utf8')
  const headers = { host: '127.0.0.1', connection: 'close', ...h.headers, ...(body ? { 'content-length': String(body.length) } : {}) }
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  const target = Buffer.isBuffer(h.target) ? h.target : Buffer.from(h.target, 'latin1')
  return Buffer.concat([Buffer.from(`${h.method} `), target, Buffer.from(` HTTP/1.1\r\n${head}\r\n`), ...(body ? [body] : [])])
}

/** Status, headers and body once complete (Content-Length, chunked end, or the connection closed). */
function parse (data: Buffer, closed: boolean): Omit<Answer, 'ms'> | undefined {
  const end = data.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN)
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const i = line.indexOf(':')
    const k = line.slice(0, i).trim().toLowerCase()
    headers[k] = headers[k] === undefined ? line.slice(i + 1).trim() : `${headers[k]}, ${line.slice(i + 1).trim()}`
  }
  let body = data.subarray(end + 4)
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = []
    for (let at = 0; ;) {
      const eol = body.indexOf('\r\n', at)
      if (eol < 0) return closed ? { status, headers, text: Buffer.concat(parts).toString('utf8') } : undefined
      const size = parseInt(body.subarray(at, eol).toString(), 16)
      if (size === 0) break
      parts.push(body.subarray(eol + 2, eol + 2 + size))
      at = eol + 2 + size + 2
    }
    body = Buffer.concat(parts)
  } else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length'])
    if (body.length < length && !closed) return undefined
    body = body.subarray(0, length)
  } else if (!closed && status !== 204 && status !== 304) return undefined
  return { status, headers, text: body.toString('utf8') }
}

export async function exchange (port: number, h: Hostile, timeoutMs = 2000): Promise<Outcome> {
  const started = performance.now()
  return await new Promise((resolve) => {
    const chunks: Buffer[] = []
    const socket = connect(port, '127.0.0.1')
    let done = false
    const finish = (closed: boolean, failure?: 'timeout'): void => {
      if (done) return
      const answer = parse(Buffer.concat(chunks), closed)
      if (!answer && !closed && !failure) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      const ms = performance.now() - started
      resolve(answer && !failure ? { answer: { ...answer, ms } } : { failure: failure ?? 'closed without an answer', ms })
    }
    const timer = setTimeout(() => finish(false, 'timeout'), timeoutMs)
    socket.on('data', (c: Buffer) => { chunks.push(c); finish(false) })
    socket.on('error', () => finish(true)) // a reset after the answer arrived still counts as answered
    socket.on('close', () => finish(true))
    socket.write(bytesOf(h))
  })
}

// ---------- the database, watched ----------

/**
 * A dump of every table of the installation's SQLite file, hashed per table. SQLite's
 * `data_version` tells, for nothing, whether another connection committed since the last look;
 * the dump (tens of ms) runs only then, so a refused request is checked on every request.
 */
export class DatabaseWatch {
  private readonly db: BetterSqlite3.Database
  private version: number
  private tables: Map<string, string>

  constructor (file: string) {
    this.db = new BetterSqlite3(file, { readonly: true, fileMustExist: true })
    this.version = this.dataVersion()
    this.tables = this.dump()
  }

  private dataVersion (): number { return this.db.pragma('data_version', { simple: true }) as number }

  dump (): Map<string, string> {
    const names = (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name)
    return new Map(names.map((name) => {
      const q = (id: string): string => `"${id.replace(/"/g, '""')}"`
      // Every row as SQL literals (quote()), joined by SQLite itself: exact, and no JS object per row.
      const columns = (this.db.prepare(`PRAGMA table_info(${q(name)})`).all() as Array<{ name: string }>).map((c) => `quote(${q(c.name)})`).join(" || ',' || ")
      const rows = (order: string): unknown => this.db.prepare(`SELECT group_concat(r, char(10)) FROM (SELECT ${columns} AS r FROM ${q(name)} ORDER BY ${order})`).pluck().get()
      let text: unknown
      try { text = rows('rowid') } catch { text = rows('1') } // WITHOUT ROWID tables
      return [name, createHash('sha256').update(String(text ?? '')).digest('hex')]
    }))
  }

  tableNames (): string[] { return [...this.tables.keys()] }

  /** Tables whose content changed since the last call (empty: unchanged). */
  changes (): string[] {
    const version = this.dataVersion()
    if (version === this.version) return []
    this.version = version
    const now = this.dump()
    const changed = [...new Set([...now.keys(), ...this.tables.keys()])].filter((t) => now.get(t) !== this.tables.get(t))
    this.tables = now
    return changed
  }

  close (): void { this.db.close() }
}

// ---------- judging one answer ----------

export const PROBLEM_BASE = 'https://ponte.dev/problems/'
/** SQL, driver, stack or path text: none may reach a caller (test/helpers/contract.ts has the same idea). */
export const LEAKS = /\b(SELECT|INSERT|UPDATE|DELETE|FROM|WHERE|JOIN|SQLITE_\w+|SqliteError|sqlite3?|mssql|tedious|dbo\.|no such (table|column)|syntax error|node_modules|FST_\w+)\b|at \/|\.ts:\d/

export type Kind = 'answered' | 'no 5xx' | 'problem+json' | 'no leak' | 'as issue 7 asks' | 'database unchanged'
export const KINDS: Kind[] = ['answered', 'no 5xx', 'problem+json', 'no leak', 'as issue 7 asks', 'database unchanged']

export function judge (h: Hostile, answer: Answer, tables: string[]): Array<{ kind: Kind, why: string }> {
  const out: Array<{ kind: Kind, why: string }> = []
  const { status, headers, text } = answer
  if (status >= 500 && status !== 503 && status !== 504) out.push({ kind: 'no 5xx', why: `status ${status}` })
  let body: any
  try { body = JSON.parse(text) } catch {}
  if (status >= 400) {
    const ct = headers['content-type'] ?? ''
    if (!ct.startsWith('application/problem+json')) out.push({ kind: 'problem+json', why: `content-type "${ct}"` })
    else if (typeof body?.type !== 'string' || !body.type.startsWith(PROBLEM_BASE)) out.push({ kind: 'problem+json', why: `type ${JSON.stringify(body?.type)}` })
    else if (body.status !== status) out.push({ kind: 'problem+json', why: `body.status ${JSON.stringify(body.status)} ≠ ${status}` })
  }
  // What the caller sent may come back (instance, a detail naming the value): that is no leak.
  let told = body && typeof body === 'object' && !Array.isArray(body) ? JSON.stringify({ ...body, instance: undefined }) : text
  // Nor is a hostile string an earlier request stored and this one reads back.
  for (const echo of [h.payload, h.method, typeof h.target === 'string' ? safeDecode(h.target) : undefined, ...INJECTIONS]) {
    if (echo && echo.length >= 4) told = told.split(echo).join('') // shorter ones ('_', '%') would cut SQLITE_BUSY apart
  }
  // Legacy table names only count in errors: data may say them ("…/patients/36.jpg").
  const leak = LEAKS.exec(told) ?? (status >= 400 ? tables.map((t) => new RegExp(`\\b${t}\\b`).exec(told)).find(Boolean) : undefined)
  if (leak) out.push({ kind: 'no leak', why: `"${told.slice(Math.max(0, leak.index - 40), leak.index + 40)}"` })
  const miss = h.expect && unmet(h.expect, answer, body)
  if (miss) out.push({ kind: 'as issue 7 asks', why: miss })
  return out
}

function unmet (e: Expect, { status, headers, text }: Answer, body: any): string | undefined {
  const okStatus = e.status === 'refused' ? status >= 400 && status < 500 : e.status.includes(status)
  const list = status === 200 && Array.isArray(body) ? body as unknown[] : undefined
  const allowedList = list && ((e.emptyOk && list.length === 0) || (e.heldBy !== undefined && list.every((x) => JSON.stringify(x).includes(JSON.stringify(e.heldBy).slice(1, -1)))))
  if (!okStatus && !allowedList) return `${e.why}: expected ${e.status === 'refused' ? '4xx' : e.status.join('/')}${e.emptyOk ? ' or 200 []' : ''}, got ${status}`
  if (e.allow) {
    const allow = (headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase())
    const missing = e.allow.filter((m) => !allow.includes(m))
    if (missing.length > 0) return `${e.why}: Allow "${headers.allow ?? ''}" lacks ${missing.join(', ')}`
  }
  if (e.names && status === 400) {
    const told = JSON.stringify({ ...body, instance: undefined })
    if (!told.includes(e.names) && !told.includes(encodeURIComponent(e.names))) return `${e.why}: the problem does not name "${e.names}"`
  }
  return undefined
}

function safeDecode (s: string): string {
  try { return decodeURIComponent(s) } catch { return s }
}

// ---------- a whole run ----------

export interface Failure { kind: Kind, why: string, h: Hostile, status?: number, reply?: string }
export interface RunResult { sent: number, skipped: number, hangs: number, failures: Failure[], byCategory: Map<string, number>, byRoute: Map<string, number>, ms: number }

/**
 * Sends every request in order, one at a time (so a change to the database belongs to one
 * request). A request unanswered within the deadline kills the server and starts a fresh one;
 * after two hangs on one route its remaining requests are skipped (counted), not retried.
 */
export async function runHostile (server: Hosted, requests: Hostile[], options: { deadlineMs?: number } = {}): Promise<RunResult> {
  const started = performance.now()
  let watch = new DatabaseWatch(server.file)
  const legacyTables = watch.tableNames().filter((n) => n.length >= 4 && !n.startsWith('sqlite_') && !INTERFACE_WORDS.has(n.toLowerCase()))
  const result: RunResult = { sent: 0, skipped: 0, hangs: 0, failures: [], byCategory: new Map(), byRoute: new Map(), ms: 0 }
  const hangsByRoute = new Map<string, number>()
  try {
    for (const h of requests) {
      if ((hangsByRoute.get(h.route) ?? 0) >= 2) { result.skipped++; continue }
      result.sent++
      result.byCategory.set(h.category, (result.byCategory.get(h.category) ?? 0) + 1)
      result.byRoute.set(h.route, (result.byRoute.get(h.route) ?? 0) + 1)
      const outcome = await exchange(server.port, h, options.deadlineMs ?? 2000)
      if (!outcome.answer) {
        result.failures.push({ kind: 'answered', why: `${outcome.failure} after ${Math.round(outcome.ms)} ms`, h })
        if (outcome.failure === 'timeout') {
          result.hangs++
          hangsByRoute.set(h.route, (hangsByRoute.get(h.route) ?? 0) + 1)
          watch.close()
          await server.restart()
          watch = new DatabaseWatch(server.file)
        }
        continue
      }
      for (const f of judge(h, outcome.answer, legacyTables)) result.failures.push({ ...f, h, status: outcome.answer.status, reply: outcome.answer.text.slice(0, 300) })
      // A refused request (or a read) must leave the clinic's data as it found it.
      const changed = watch.changes()
      if (changed.length > 0 && (outcome.answer.status >= 400 || h.method === 'GET')) {
        result.failures.push({ kind: 'database unchanged', why: `tables changed: ${changed.join(', ')}`, h, status: outcome.answer.status, reply: outcome.answer.text.slice(0, 300) })
      }
    }
  } finally {
    watch.close()
  }
  result.ms = performance.now() - started
  return result
}

// Table names that are also words of the interface (contract.ts keeps the same list).
const INTERFACE_WORDS = new Set(['appointments', 'appointment', 'clients', 'client', 'professionals', 'professional', 'locations', 'location',
  'services', 'service', 'specialties', 'specialty', 'health_insurances', 'plans', 'plan', 'state', 'id'])

// ---------- reporting ----------

/** A request as a reader can replay it: JSON-escaped, long parts cut. */
export function describe (f: Failure, seed: number): Record<string, unknown> {
  const cut = (s: string, n = 160): string => s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s
  const { h } = f
  const target = typeof h.target === 'string' ? h.target : `bytes:${h.target.toString('hex')}`
  return {
    why: f.why,
    seed,
    n: h.n,
    category: h.category,
    route: h.route,
    request: h.raw ? cut(JSON.stringify(h.raw.toString('latin1')), 240) : `${h.method} ${cut(target)}`,
    ...(h.raw ? {} : { headers: h.headers }),
    ...(h.body !== undefined ? { body: Buffer.isBuffer(h.body) ? cut(JSON.stringify(h.body.toString('latin1'))) : cut(h.body) } : {}),
    ...(f.status !== undefined ? { status: f.status } : {}),
    ...(f.reply !== undefined ? { reply: cut(f.reply, 200) } : {})
  }
}

/** Failures of one kind, counted per category with the first `examples` of each. */
export function summarise (failures: Failure[], seed: number, examples = 2): Record<string, unknown> {
  const byCategory = new Map<string, Failure[]>()
  for (const f of failures) byCategory.set(f.h.category, [...(byCategory.get(f.h.category) ?? []), f])
  return Object.fromEntries([...byCategory].map(([c, fs]) => [c, { count: fs.length, routes: [...new Set(fs.map((f) => f.h.route))].length, examples: fs.slice(0, examples).map((f) => describe(f, seed)) }]))
}
