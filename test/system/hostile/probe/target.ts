// The hostile probe's target, set up as an outsider would from the docs: the sample clinic
// loaded with `ponte fixtures load` into a fresh SQLite file or an empty MariaDB/PostgreSQL
// database, served by `node --import tsx src/server.ts` with the documented environment, and
// a second connection of the probe's own (the clinic's desktop program) to read rows back,
// hold locks and kill Ponte's connections.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import Sqlite from 'better-sqlite3'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { childEnv } from '../../../helpers/child-env.js'

export type DatabaseKind = 'sqlite' | 'mysql' | 'postgres'
export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'mysql', 'postgres']

export const ROOT = new URL('../../../..', import.meta.url).pathname
export const KEY = 'probe-key-0123456789abcdef'
export const READ_KEY = 'probe-read-0123456789abcdef'
const MAPPING = join(ROOT, 'mappings/clinica-sorriso.yaml')
const FIXTURE = join(ROOT, 'fixtures/clinica-sorriso')

/** The bounds the probe serves with, short so the slow cases stay short (docs/operations.md). */
export const BOUNDS = {
  headersMs: 2000,
  requestMs: 3000,
  storeBusyMs: 1000,
  sqliteBusyMs: 1500,
  statementMs: 3000
}

/** The rows a refused request must not change: each table a write touches, counted with its largest key. */
const WATCHED: Array<[string, string]> = [['AGENDA', 'ID_AGENDA'], ['PACIENTE', 'ID_PACIENTE'], ['SEQUENCIAL', 'ULTIMO']]

/** A connection of the probe's own to the clinic's database: what the desktop program does. */
export interface Desk {
  /** Rows of a statement, `?` parameters (numbered for PostgreSQL here). */
  rows: (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>
  close: () => Promise<void>
}

export class Target {
  port = 0
  server?: ChildProcess
  serverErr = ''
  readonly dir = mkdtempSync(join(tmpdir(), 'ponte-probe-'))
  readonly store = join(this.dir, 'idempotency.sqlite')
  private dropDatabase?: () => Promise<void>
  url = ''

  constructor (readonly kind: DatabaseKind) {}

  get base (): string { return `http://127.0.0.1:${this.port}` }

  /** Table name as the database spells it (the mapping's `dbo.` schema kept on PostgreSQL only). */
  table (name: string): string {
    if (this.kind === 'postgres') return `"dbo"."${name}"`
    if (this.kind === 'mysql') return `\`${name}\``
    return `"${name}"`
  }

  col (name: string): string { return this.kind === 'mysql' ? `\`${name}\`` : `"${name}"` }

  async load (): Promise<void> {
    if (this.kind === 'sqlite') {
      const file = join(this.dir, 'clinic.db')
      ponte(['fixtures', 'load', FIXTURE, file])
      this.url = `sqlite:${file}?busyTimeoutMs=${BOUNDS.sqliteBusyMs}`
      return
    }
    const name = `ponte_probe_${randomBytes(5).toString('hex')}`
    if (this.kind === 'mysql') {
      const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' })
      await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`)
      await admin.end()
      this.dropDatabase = async () => {
        const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' })
        await c.query(`DROP DATABASE IF EXISTS ${name}`)
        await c.end()
      }
      ponte(['fixtures', 'load', FIXTURE, '--db', `mysql://root@127.0.0.1:3306/${name}`])
      this.url = `mysql://root@127.0.0.1:3306/${name}?statementTimeoutMs=${BOUNDS.statementMs}&connectTimeoutMs=2000`
      return
    }
    const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    this.dropDatabase = async () => {
      const c = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    }
    ponte(['fixtures', 'load', FIXTURE, '--db', `postgres://postgres@127.0.0.1:5432/${name}`])
    this.url = `postgres://postgres@127.0.0.1:5432/${name}?statementTimeoutMs=${BOUNDS.statementMs}&connectTimeoutMs=2000`
  }

  /** The environment every Ponte process of the probe gets. */
  env (extra: Record<string, string> = {}): Record<string, string> {
    return {
      // Under tap, a Ponte child's coverage must not be merged (helpers/child-env.ts says why).
      ...childEnv() as Record<string, string>,
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATABASE_URL: this.url,
      MAPPING,
      API_KEYS: `${KEY},reader:read:${READ_KEY}`,
      IDEMPOTENCY_STORE: this.store,
      IDEMPOTENCY_BUSY_TIMEOUT_MS: String(BOUNDS.storeBusyMs),
      HEADERS_TIMEOUT_MS: String(BOUNDS.headersMs),
      REQUEST_TIMEOUT_MS: String(BOUNDS.requestMs),
      RATE_LIMIT_PER_MINUTE: '0',
      SHUTDOWN_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'fatal',
      PID_FILE: join(this.dir, 'ponte.pid'),
      ...extra
    }
  }

  async start (): Promise<void> {
    this.port = await freePort()
    this.serverErr = ''
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: ROOT, env: this.env(), stdio: ['ignore', 'ignore', 'pipe'] })
    child.stderr?.on('data', (d: Buffer) => { this.serverErr += d.toString() })
    this.server = child
    const until = Date.now() + 60_000
    while (Date.now() < until) {
      if (child.exitCode !== null) throw new Error(`Ponte exited ${child.exitCode}: ${this.serverErr}`)
      try {
        if ((await fetch(`${this.base}/health`)).ok) return
      } catch {}
      await sleep(200)
    }
    throw new Error('Ponte did not answer /health within 60 s')
  }

  async stop (): Promise<void> {
    const child = this.server
    if (child === undefined || child.exitCode !== null) return
    const gone = new Promise(resolve => child.once('exit', resolve))
    child.kill('SIGTERM')
    await Promise.race([gone, sleep(8000)])
    if (child.exitCode === null) child.kill('SIGKILL')
  }

  async close (): Promise<void> {
    await this.stop()
    await this.dropDatabase?.()
    rmSync(this.dir, { recursive: true, force: true })
  }

  /** A connection of the clinic's own program to the same database. */
  async desk (): Promise<Desk> {
    if (this.kind === 'sqlite') {
      const db = new Sqlite(this.url.slice('sqlite:'.length).split('?')[0], { timeout: 100 })
      return {
        rows: async (sql, params = []) => {
          const st = db.prepare(sql)
          if (st.reader) return st.all(...params) as Array<Record<string, unknown>>
          st.run(...params)
          return []
        },
        close: async () => { db.close() }
      }
    }
    if (this.kind === 'mysql') {
      const c = await mysql.createConnection(this.url.split('?')[0])
      return {
        rows: async (sql, params = []) => {
          const [r] = await c.query(sql, params)
          return Array.isArray(r) ? r as Array<Record<string, unknown>> : []
        },
        close: async () => { await c.end() }
      }
    }
    const c = new pg.Client({ connectionString: this.url.split('?')[0] })
    await c.connect()
    c.on('error', () => {})
    return {
      rows: async (sql, params = []) => {
        let n = 0
        const r = await c.query(sql.replace(/\?/g, () => `$${++n}`), params)
        return r.rows
      },
      close: async () => { await c.end() }
    }
  }

  /** The watched tables' row counts and largest keys: equal before and after means nothing was written. */
  async fingerprint (): Promise<string> {
    const desk = await this.desk()
    try {
      const parts: string[] = []
      for (const [name, key] of WATCHED) {
        const [row] = await desk.rows(`SELECT COUNT(*) AS n, MAX(${this.col(key)}) AS k FROM ${this.table(name)}`)
        parts.push(`${name}:${String(row.n)}/${String(row.k)}`)
      }
      return parts.join(' ')
    } finally {
      await desk.close()
    }
  }

  /** Closes every connection Ponte holds to the database, as an administrator's KILL would. */
  async killPonteConnections (): Promise<number> {
    const desk = await this.desk()
    try {
      if (this.kind === 'mysql') {
        const db = new URL(this.url).pathname.slice(1)
        const ids = await desk.rows('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [db])
        for (const { id } of ids) await desk.rows(`KILL ${Number(id)}`).catch(() => {})
        return ids.length
      }
      if (this.kind === 'postgres') {
        const db = new URL(this.url).pathname.slice(1)
        const r = await desk.rows('SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()', [db])
        return r.length
      }
      return 0
    } finally {
      await desk.close()
    }
  }

  /** A mapping file in the probe's folder: the sample's text changed by `edit`. */
  mappingFile (name: string, text: string): string {
    const file = join(this.dir, name)
    writeFileSync(file, text)
    return file
  }
}

export const SAMPLE_MAPPING = MAPPING

function ponte (args: string[]): void {
  const r = spawnSync(process.execPath, ['bin/ponte.js', ...args], { cwd: ROOT, env: childEnv(), encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`ponte ${args.join(' ')}: ${r.stderr}`)
}

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      const port = typeof a === 'object' && a !== null ? a.port : 0
      s.close(() => resolve(port))
    })
  })
}

export async function sleep (ms: number): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, ms))
}
