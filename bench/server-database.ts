// `npm run bench -- --database mysql|postgres`: the grown clinic chain in the local MariaDB or
// PostgreSQL, in two databases of the bench's own (`<prefix>_ponte`, `<prefix>_hand`, dropped
// and created afresh each run, dropped at the end), one per server, so that each server's
// writes and each database's counters are its own.
// Loaded with the fixture loaders (multi-row INSERTs of 1,000 rows on MariaDB; one
// json_populate_recordset per table on PostgreSQL), with the search indexes `ponte check`
// advises (grow.ts), analysed, then copied (PostgreSQL: CREATE DATABASE … TEMPLATE; MariaDB:
// CREATE TABLE … LIKE and INSERT … SELECT).
// The database's side of a request, read between windows from the server's own counters:
//  - PostgreSQL: pg_stat_user_tables (rows: seq_tup_read + idx_tup_fetch) and
//    pg_statio_user_tables (buffers: heap and index blocks hit + read), per database. A
//    backend publishes its counts at most once a second and, once idle, within 10 s
//    (PGSTAT_IDLE_INTERVAL): every reading waits 11 s after the load stops. pg_stat_statements
//    would need shared_preload_libraries, i.e. a restart of a server others share.
//  - MariaDB: information_schema.TABLE_STATISTICS.ROWS_READ per database (the `userstat`
//    plugin's counters, switched on for the run and back off after). performance_schema's
//    digests need it on at start-up; the global Handler_read_* counters would mix in every
//    other database on a shared server. MariaDB keeps no per-database page counts: no buffers.
import mysql from 'mysql2/promise'
import pg from 'pg'
import { toFixture } from './grow/kit.js'
import { grown, followSearchIndexAdvice, type GrowParams } from './grow.js'

export type ServerKind = 'mysql' | 'postgres'
export type Side = 'ponte' | 'hand'
export interface DbCounters { rows: number, buffers?: number }

export const DEFAULT_SERVER_URLS: Record<ServerKind, string> = {
  mysql: 'mysql://root@127.0.0.1:3306/',
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres'
}

export interface ServerDatabase {
  kind: ServerKind
  url: (side: Side) => string
  /** What the counters count, for the report. */
  counters: string
  /** How long after the load stops the counters hold every finished statement. */
  settleMs: number
  /** The database's counters now. */
  read: (side: Side) => Promise<DbCounters>
  /** The bookings written after `afterId`, in slot order, ids and timestamps aside (W5). */
  booked: (side: Side, afterId: number) => Promise<unknown[]>
  maxAppointmentId: (side: Side) => Promise<number>
  close: () => Promise<void>
}

const withPath = (url: string, database: string): string => { const u = new URL(url); u.pathname = `/${database}`; return u.toString() }
const SETTLE_MS = { postgres: 11_000, mysql: 0 }

const BOOKED = ['DATA', 'HORA', 'DURACAO', 'ID_PACIENTE', 'ID_PROFISSIONAL', 'ID_HIGIENISTA', 'ID_PROCEDIMENTO', 'ID_CONVENIO', 'PLANO', 'ID_SALA', 'FL_HIGIENE',
  'TIPO_ATEND', 'EXCLUIDO', 'USUARIO', 'SITUACAO', 'CONFIRMADO', 'DT_CONFIRMACAO', 'USUARIO_ALT']

/** Grows the fixture into fresh databases on the server at `serverUrl` and opens their counters. */
export async function openServerDatabase (kind: ServerKind, serverUrl: string, prefix: string, params: GrowParams, progress: (line: string) => void): Promise<ServerDatabase> {
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(prefix)) throw new Error(`--db-prefix: "${prefix}" is not a plain lower-case name`)
  const names: Record<Side, string> = { ponte: `${prefix}_ponte`, hand: `${prefix}_hand` }
  const url = (side: Side): string => withPath(serverUrl, names[side])
  const load = kind === 'postgres' ? (await import('../src/sql/postgres/load.js')).loadFixture : (await import('../src/sql/mysql/load.js')).loadFixture
  const started = Date.now()
  const fixture = toFixture(grown(params, progress))
  return kind === 'postgres'
    ? await openPostgres(serverUrl, names, url, async () => { await load(fixture, url('ponte')) }, params.sample, progress, started)
    : await openMysql(serverUrl, names, url, async () => { await load(fixture, url('ponte')) }, params.sample, progress, started)
}

async function openPostgres (serverUrl: string, names: Record<Side, string>, url: (side: Side) => string, load: () => Promise<void>, sample: string, progress: (line: string) => void, started: number): Promise<ServerDatabase> {
  const q = (name: string): string => `"${name}"`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    for (const n of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${q(n)} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${q(names.ponte)} TEMPLATE template0 ENCODING 'UTF8'`)
    await load()
    for (const sql of await followSearchIndexAdvice(sample, url('ponte'))) progress(`check's advice: ${sql}`)
    const c = new pg.Client({ connectionString: url('ponte') })
    await c.connect()
    await c.query('ANALYZE').finally(async () => { await c.end() })
    await admin.query(`CREATE DATABASE ${q(names.hand)} TEMPLATE ${q(names.ponte)}`)
  } finally {
    await admin.end()
  }
  progress(`loaded into PostgreSQL ${names.ponte} and copied to ${names.hand} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const clients: Record<Side, pg.Client> = { ponte: new pg.Client({ connectionString: url('ponte') }), hand: new pg.Client({ connectionString: url('hand') }) }
  for (const c of Object.values(clients)) await c.connect()
  const one = async (side: Side, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => (await clients[side].query(sql, params)).rows as Record<string, unknown>[]
  return {
    kind: 'postgres',
    url,
    counters: 'pg_stat_user_tables (rows = seq_tup_read + idx_tup_fetch) and pg_statio_user_tables (buffers = heap + index blocks hit + read), per database, read 11 s after the load stops',
    settleMs: SETTLE_MS.postgres,
    read: async (side) => {
      const [r] = await one(side, `SELECT
        (SELECT COALESCE(SUM(seq_tup_read), 0) + COALESCE(SUM(idx_tup_fetch), 0) FROM pg_stat_user_tables)::float8 AS rows,
        (SELECT COALESCE(SUM(heap_blks_hit + heap_blks_read + COALESCE(idx_blks_hit, 0) + COALESCE(idx_blks_read, 0)), 0) FROM pg_statio_user_tables)::float8 AS buffers`)
      return { rows: Number(r!.rows), buffers: Number(r!.buffers) }
    },
    maxAppointmentId: async (side) => Number((await one(side, 'SELECT MAX("ID_AGENDA") AS m FROM "dbo"."AGENDA"'))[0]!.m),
    booked: async (side, after) => await one(side, `SELECT ${BOOKED.map(q).join(', ')}, "DT_CADASTRO" IS NOT NULL AS "CADASTRO", "DT_ALTERACAO" IS NOT NULL AS "ALTERACAO"
      FROM "dbo"."AGENDA" WHERE "ID_AGENDA" > $1 ORDER BY "DATA", "HORA", "ID_PROFISSIONAL", "ID_PACIENTE"`, [after]),
    close: async () => {
      for (const c of Object.values(clients)) await c.end()
      const a = new pg.Client({ connectionString: serverUrl })
      await a.connect()
      try { for (const n of Object.values(names)) await a.query(`DROP DATABASE IF EXISTS ${q(n)} WITH (FORCE)`) } finally { await a.end() }
    }
  }
}

async function openMysql (serverUrl: string, names: Record<Side, string>, url: (side: Side) => string, load: () => Promise<void>, sample: string, progress: (line: string) => void, started: number): Promise<ServerDatabase> {
  const q = (name: string): string => `\`${name}\``
  const { connectTo, unicodeCollation } = await import('../src/sql/mysql/load.js')
  const admin = await connectTo(serverUrl)
  const [[{ userstat }]] = await admin.query('SELECT @@GLOBAL.userstat AS userstat') as unknown as [[{ userstat: number }]]
  try {
    for (const n of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${q(n)}`)
    const collation = await unicodeCollation(admin)
    for (const n of Object.values(names)) await admin.query(`CREATE DATABASE ${q(n)} CHARACTER SET utf8mb4 COLLATE ${collation}`)
    await load()
    for (const sql of await followSearchIndexAdvice(sample, url('ponte'))) progress(`check's advice: ${sql}`)
    const [tables] = await admin.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [names.ponte]) as unknown as [{ t: string }[]]
    await admin.query('SET SESSION foreign_key_checks = 0, unique_checks = 0')
    for (const { t } of tables) {
      await admin.query(`CREATE TABLE ${q(names.hand)}.${q(t)} LIKE ${q(names.ponte)}.${q(t)}`)
      await admin.query(`INSERT INTO ${q(names.hand)}.${q(t)} SELECT * FROM ${q(names.ponte)}.${q(t)}`)
    }
    for (const n of Object.values(names)) await admin.query(`ANALYZE TABLE ${tables.map(({ t }) => `${q(n)}.${q(t)}`).join(', ')}`)
    if (Number(userstat) !== 1) await admin.query('SET GLOBAL userstat = 1')
  } catch (err) {
    await admin.end()
    throw err
  }
  progress(`loaded into MariaDB ${names.ponte} and copied to ${names.hand} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const conns: Record<Side, mysql.Connection> = { ponte: await connectTo(url('ponte')), hand: await connectTo(url('hand')) }
  const rowsOf = async (side: Side, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => (await conns[side].query(sql, params))[0] as Record<string, unknown>[]
  return {
    kind: 'mysql',
    url,
    counters: 'information_schema.TABLE_STATISTICS (rows = ROWS_READ, the userstat counters), per database; no per-database buffer counts on MariaDB',
    settleMs: SETTLE_MS.mysql,
    read: async (side) => {
      const [r] = await rowsOf(side, 'SELECT COALESCE(SUM(ROWS_READ), 0) AS r FROM information_schema.TABLE_STATISTICS WHERE TABLE_SCHEMA = ?', [names[side]])
      return { rows: Number(r!.r) }
    },
    maxAppointmentId: async (side) => Number((await rowsOf(side, 'SELECT MAX(ID_AGENDA) AS m FROM AGENDA'))[0]!.m),
    booked: async (side, after) => (await rowsOf(side, `SELECT ${BOOKED.map(q).join(', ')}, DT_CADASTRO IS NOT NULL AS CADASTRO, DT_ALTERACAO IS NOT NULL AS ALTERACAO
      FROM AGENDA WHERE ID_AGENDA > ? ORDER BY DATA, HORA, ID_PROFISSIONAL, ID_PACIENTE`, [after])).map((r) => ({ ...r, CADASTRO: Boolean(r.CADASTRO), ALTERACAO: Boolean(r.ALTERACAO) })),
    close: async () => {
      for (const c of Object.values(conns)) await c.end()
      try {
        for (const n of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${q(n)}`)
        if (Number(userstat) !== 1) await admin.query('SET GLOBAL userstat = ?', [userstat])
      } finally {
        await admin.end()
      }
    }
  }
}
