// The baseline's statements on MariaDB (mysql2) and PostgreSQL (pg): the same statements as
// on SQLite, written once with ANSI quotes (MariaDB sessions run with ANSI_QUOTES), prepared
// on the server (mysql2's execute, pg's named statements), on a pool of 5 as Ponte's default.
// Rows come back as on SQLite: dates as text, numbers as numbers (or numeric text).
// A booking holds the key table's row from its first statement to its commit: bookings are
// one at a time, so the check that a time is free still holds when the row goes in.
import mysql from 'mysql2/promise'
import pg from 'pg'
import { hhmm, localNow, minutes, overlaps, weekday, windowFor, type BaselineStore, type Booking, type PhoneProbes, type Row } from './store.js'

type Kind = 'mysql' | 'postgres'

/** A connection's statements: rows of a query, and what a write changed. */
interface Session {
  rows: (sql: string, params: unknown[]) => Promise<Row[]>
  write: (sql: string, params: unknown[]) => Promise<{ rows: Row[], insertId?: number }>
  /** BEGIN, COMMIT, ROLLBACK: not prepared, not counted as statements. */
  command: (sql: string) => Promise<void>
}

const APPOINTMENT_COLUMNS = 'a."ID_AGENDA", a."DATA", a."HORA", a."DURACAO", a."SITUACAO", a."CONFIRMADO", a."TIPO_ATEND"'
function statementsFor (kind: Kind, probes: { exact: number, ranges: number }) {
  // PostgreSQL keeps the fixture's `dbo` schema; MariaDB's database is the namespace.
  const t = (name: string): string => kind === 'postgres' ? `"dbo"."${name}"` : `"${name}"`
  const appointment = `
    SELECT ${APPOINTMENT_COLUMNS},
           a."FL_HIGIENE", a."ID_HIGIENISTA", a."ID_PROFISSIONAL", a."ID_PROCEDIMENTO", a."ID_CONVENIO",
           s."ID_UNIDADE", p."ID_ESPECIALIDADE",
           c."ID_PACIENTE", c."NOME", c."NOME_SOCIAL", c."OBS", c."EMAIL", c."PRONTUARIO", c."CPF", c."DT_NASC",
           c."CELULAR", c."FONE_RES", c."FONE_COM"
    FROM ${t('AGENDA')} a
    LEFT JOIN ${t('SALA')} s ON s."ID_SALA" = a."ID_SALA"
    LEFT JOIN ${t('PROCEDIMENTO')} p ON p."ID_PROCEDIMENTO" = a."ID_PROCEDIMENTO"
    LEFT JOIN ${t('PACIENTE')} c ON c."ID_PACIENTE" = a."ID_PACIENTE" AND c."TIPO" = 'P' AND c."DT_EXCLUSAO" IS NULL
    WHERE a."EXCLUIDO" <> 'S'`
  const order = ' ORDER BY a."DATA", a."HORA", a."ID_AGENDA"'
  // Each phone column: whole values by equality (one index lookup each), values with an
  // extension after the number by prefix; the optimiser unions the index ranges. On
  // PostgreSQL a prefix is a LIKE: the indexes `ponte check` advises there are
  // text_pattern_ops, which serve LIKE and = but not < and >=.
  const prefix = (col: string): string => kind === 'postgres' ? ` OR "${col}" LIKE ?` : ` OR ("${col}" >= ? AND "${col}" < ?)`
  const probed = (col: string): string => `"${col}" IN (${Array(probes.exact).fill('?').join(', ')})` + Array(probes.ranges).fill(prefix(col)).join('')
  return {
    range: `${appointment} AND a."DATA" >= ? AND a."DATA" <= ?${order}`,
    rangeOfProfessional: `${appointment} AND a."DATA" >= ? AND a."DATA" <= ?
      AND CASE WHEN a."FL_HIGIENE" = 'S' THEN a."ID_HIGIENISTA" ELSE a."ID_PROFISSIONAL" END = ?${order}`,
    minimalRange: `SELECT ${APPOINTMENT_COLUMNS} FROM ${t('AGENDA')} a WHERE a."EXCLUIDO" <> 'S' AND a."DATA" >= ? AND a."DATA" <= ?${order}`,
    byId: `${appointment} AND a."ID_AGENDA" = ?`,
    searchPhone: `
      SELECT "ID_PACIENTE", "NOME", "NOME_SOCIAL", "OBS", "EMAIL", "PRONTUARIO", "CPF", "DT_NASC", "CELULAR", "FONE_RES", "FONE_COM"
      FROM ${t('PACIENTE')}
      WHERE "TIPO" = 'P' AND "DT_EXCLUSAO" IS NULL AND (${probed('CELULAR')} OR ${probed('FONE_RES')} OR ${probed('FONE_COM')})
      ORDER BY "ID_PACIENTE" LIMIT 1000`,
    clientExists: `SELECT 1 AS "ok" FROM ${t('PACIENTE')} WHERE "ID_PACIENTE" = ? AND "TIPO" = 'P' AND "DT_EXCLUSAO" IS NULL`,
    hoursThatDay: `SELECT "ID_UNIDADE", "HORA_INICIO", "HORA_FIM", "INTERVALO" FROM ${t('HORARIO')}
      WHERE "ID_PROFISSIONAL" = ? AND "DIA_SEMANA" = ? AND "VIGENCIA_INI" <= ? AND ("VIGENCIA_FIM" IS NULL OR "VIGENCIA_FIM" >= ?)`,
    blockOver: `SELECT 1 AS "ok" FROM ${t('BLOQUEIO')} WHERE ("ID_PROFISSIONAL" IS NULL OR "ID_PROFISSIONAL" = ?)
      AND "DT_INICIO" <= ? AND "DT_FIM" >= ? AND ("HORA_INICIO" IS NULL OR ("HORA_INICIO" < ? AND "HORA_FIM" > ?)) LIMIT 1`,
    sameDay: `SELECT "HORA", "DURACAO" FROM ${t('AGENDA')} WHERE "DATA" = ? AND "EXCLUIDO" <> 'S' AND "SITUACAO" <> 'X'
      AND (CASE WHEN "FL_HIGIENE" = 'S' THEN "ID_HIGIENISTA" ELSE "ID_PROFISSIONAL" END = ? OR "ID_PACIENTE" = ?)`,
    // MariaDB has no UPDATE … RETURNING: LAST_INSERT_ID(expr) hands the new value back in the same round trip.
    bumpKey: kind === 'postgres'
      ? `UPDATE ${t('SEQUENCIAL')} SET "ULTIMO" = "ULTIMO" + 1 WHERE "TABELA" = 'AGENDA' RETURNING "ULTIMO"`
      : `UPDATE ${t('SEQUENCIAL')} SET "ULTIMO" = LAST_INSERT_ID("ULTIMO" + 1) WHERE "TABELA" = 'AGENDA'`,
    insertAppointment: `INSERT INTO ${t('AGENDA')} ("ID_AGENDA", "DATA", "HORA", "DURACAO", "ID_PACIENTE", "ID_PROFISSIONAL", "ID_PROCEDIMENTO",
        "ID_CONVENIO", "PLANO", "ID_SALA", "FL_HIGIENE", "TIPO_ATEND", "EXCLUIDO", "DT_CADASTRO", "USUARIO", "SITUACAO", "CONFIRMADO", "DT_ALTERACAO", "USUARIO_ALT")
      VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, 'N', 'C', 'N', ?, 'PONTE', 'A', 'N', ?, 'PONTE')`,
    lookups: {
      specialties: `SELECT "ID_ESPECIALIDADE" AS "ID", "DESCRICAO", "CBO" FROM ${t('ESPECIALIDADE')} ORDER BY 1`,
      profSpecialties: `SELECT "ID_PROFISSIONAL", "ID_ESPECIALIDADE" FROM ${t('PROF_ESPECIALIDADE')}`,
      professionals: `SELECT "ID_PROFISSIONAL" AS "ID", x.* FROM ${t('PROFISSIONAL')} x ORDER BY 1`,
      locations: `SELECT "ID_UNIDADE" AS "ID", x.* FROM ${t('UNIDADE')} x ORDER BY 1`,
      services: `SELECT "ID_PROCEDIMENTO" AS "ID", x.* FROM ${t('PROCEDIMENTO')} x ORDER BY 1`,
      insurances: `SELECT "ID_CONVENIO" AS "ID", "NOME", "COR" FROM ${t('CONVENIO')} ORDER BY 1`,
      profServices: `SELECT "ID_PROCEDIMENTO", "ID_PROFISSIONAL" FROM ${t('PROF_PROCEDIMENTO')} ORDER BY "ID_PROCEDIMENTO", "ID_PROFISSIONAL"`,
      roomOfUnit: `SELECT "ID_UNIDADE", MIN("ID_SALA") AS "ID_SALA" FROM ${t('SALA')} GROUP BY "ID_UNIDADE"`,
      profUnits: `SELECT "ID_PROFISSIONAL", "ID_UNIDADE" FROM ${t('PROF_UNIDADE')}`,
      enabledProfessionals: `SELECT "ID_PROFISSIONAL" FROM ${t('PROFISSIONAL')} WHERE "INATIVO" <> 'S'`
    }
  }
}

/** `?` → `$1, $2 …` (no statement here holds a `?` in a literal). */
const numbered = (sql: string): string => { let n = 0; return sql.replace(/\?/g, () => `$${++n}`) }

const PG_OID = { numeric: 1700, date: 1082, time: 1083, timestamp: 1114 }
function pgTypes (oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (format === 'binary') return pg.types.getTypeParser(oid, format)
  if (oid === PG_OID.date || oid === PG_OID.time || oid === PG_OID.timestamp) return (v) => v
  if (oid === PG_OID.numeric) return Number
  return pg.types.getTypeParser(oid, 'text')
}

interface Pool { session: <T>(work: (s: Session) => Promise<T>) => Promise<T>, any: Session, end: () => Promise<void> }

function postgresPool (url: string, planEachRun: ReadonlySet<string>): Pool {
  const pool = new pg.Pool({ connectionString: url, max: 5, application_name: 'ponte-bench-baseline', types: { getTypeParser: pgTypes as never } })
  const names = new Map<string, string>()
  // Named: parsed and planned once per connection, as a hand-written service would prepare it;
  // but the phone search unnamed, planned with its values at each run: a named statement's
  // generic plan (after five runs) cannot seek `LIKE $n`, and reads the whole table.
  const name = (sql: string): string | undefined => planEachRun.has(sql) ? undefined : names.get(sql) ?? (names.set(sql, `b${names.size}`), names.get(sql)!)
  const sessionOf = (c: pg.Pool | pg.PoolClient): Session => ({
    rows: async (sql, params) => (await c.query({ name: name(sql), text: sql, values: params })).rows as Row[],
    write: async (sql, params) => ({ rows: (await c.query({ name: name(sql), text: sql, values: params })).rows as Row[] }),
    command: async (sql) => { await c.query(sql) }
  })
  return {
    any: sessionOf(pool),
    session: async (work) => {
      const c = await pool.connect()
      try { return await work(sessionOf(c)) } finally { c.release() }
    },
    end: async () => { await pool.end() }
  }
}

function mysqlPool (url: string): Pool {
  const u = new URL(url)
  const pool = mysql.createPool({
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username) || 'root',
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    charset: 'utf8mb4_unicode_ci',
    dateStrings: true,
    connectionLimit: 5
  })
  // The statements are written with ANSI quotes.
  pool.pool.on('connection', (c) => { c.query("SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',ANSI_QUOTES')") })
  const sessionOf = (c: mysql.Pool | mysql.PoolConnection): Session => ({
    rows: async (sql, params) => (await c.execute(sql, params as never[]))[0] as Row[],
    write: async (sql, params) => {
      const [r] = await c.execute(sql, params as never[])
      return { rows: [], insertId: (r as mysql.ResultSetHeader).insertId }
    },
    command: async (sql) => { await c.query(sql) }
  })
  return {
    any: sessionOf(pool),
    session: async (work) => {
      const c = await pool.getConnection()
      try { return await work(sessionOf(c)) } finally { c.release() }
    },
    end: async () => { await pool.end() }
  }
}

export function openNetworkStore (kind: Kind, url: string): BaselineStore {
  const fix = kind === 'postgres' ? numbered : (sql: string) => sql
  const raw = statementsFor(kind, { exact: 28, ranges: 8 })
  const sql = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'lookups').map(([k, v]) => [k, fix(v as string)])) as Record<Exclude<keyof typeof raw, 'lookups'>, string>
  const pool = kind === 'postgres' ? postgresPool(url, new Set([sql.searchPhone])) : mysqlPool(url)
  let statements = 0
  const rows = async (s: Session, text: string, params: unknown[]): Promise<Row[]> => { statements++; return await s.rows(text, params) }
  const write = async (s: Session, text: string, params: unknown[]): Promise<{ rows: Row[], insertId?: number }> => { statements++; return await s.write(text, params) }
  const book = async (s: Session, b: Booking): Promise<number | string> => {
    // The key first: its row lock is what keeps two bookings from checking the same day at once.
    const bumped = await write(s, sql.bumpKey, [])
    const id = kind === 'postgres' ? bumped.rows[0]!.ULTIMO as number : bumped.insertId!
    if ((await rows(s, sql.clientExists, [b.client])).length === 0) return 'no such client'
    const window = windowFor(await rows(s, sql.hoursThatDay, [b.professional, weekday(b.date), b.date, b.date]), b)
    if (!window) return 'outside the professional\'s hours'
    const start = minutes(b.hour)
    const end = start + (window.INTERVALO as number)
    if ((await rows(s, sql.blockOver, [b.professional, b.date, b.date, hhmm(end), b.hour])).length > 0) return 'blocked'
    if (overlaps(await rows(s, sql.sameDay, [b.date, b.professional, b.client]), start, end, window.INTERVALO)) return 'taken'
    const now = localNow()
    await write(s, sql.insertAppointment, [id, b.date, b.hour, end - start, b.client, b.professional, b.room, now, now])
    return id
  }
  const probeValues = (p: PhoneProbes): string[] => {
    const prefixes = kind === 'postgres' ? p.ranges.map(([low]) => `${low.replace(/[\\%_]/g, '\\$&')}%`) : p.ranges.flat()
    const one = [...p.exact, ...prefixes]
    return [...one, ...one, ...one]
  }
  return {
    lookupRows: async () => {
      const out: Record<string, Row[]> = {}
      for (const [k, text] of Object.entries(raw.lookups)) out[k] = await pool.any.rows(fix(text), [])
      return out as never
    },
    range: async (start, end) => await rows(pool.any, sql.range, [start, end]),
    rangeOfProfessional: async (start, end, professional) => await rows(pool.any, sql.rangeOfProfessional, [start, end, professional]),
    minimalRange: async (start, end) => await rows(pool.any, sql.minimalRange, [start, end]),
    byId: async (id) => (await rows(pool.any, sql.byId, [id]))[0],
    searchPhone: async (probes) => await rows(pool.any, sql.searchPhone, probeValues(probes)),
    book: async (b) => await pool.session(async (s) => {
      await s.command(kind === 'postgres' ? 'BEGIN' : 'START TRANSACTION')
      try {
        const outcome = await book(s, b)
        await s.command(typeof outcome === 'number' ? 'COMMIT' : 'ROLLBACK')
        return outcome
      } catch (err) {
        await s.command('ROLLBACK').catch(() => undefined)
        throw err
      }
    }),
    statements: () => statements,
    close: async () => { await pool.end() }
  }
}
