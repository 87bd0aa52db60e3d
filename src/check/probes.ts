// Runs every statement the server can run — reads, every search kind, availability, and
// every write — once, each inside a transaction that is rolled back, so a mistake only the
// database can see (a misspelt write column, a type it refuses) shows before go-live and
// no row is changed. Failures are said in the mapping's words, at the place that made them.
import type { Database } from '../db/database.js'
import { nonTransactional, type LiveCatalog } from '../db/columns.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { Statement } from '../sql/statement.js'
import { claimStatements } from '../sql/claims.js'
import { MissingValueError, ConflictError, InvalidInputError, DatabaseUnavailableError } from '../errors.js'
import { addDays } from '../normalise/datetime.js'
import type { Findings } from './findings.js'
import { refusedAsReadOnly } from './read-only.js'

class RolledBack extends Error {}

/**
 * Every compiled statement, run once with harmless inputs; returns how many ran cleanly, and
 * how many writes were not run. `writesProven`: the write probe (write-probe.ts) runs every
 * write path after this with real values, so a write this made-up run breaks only by its values
 * (a CHECK constraint, a code the clinic's program validates) is left to it instead of reported
 * as a problem the server does not have. Without it (`--no-write-probe`) no write statement runs
 * at all: a rolled-back write still takes an AUTO_INCREMENT value, fires triggers, and on a
 * table that cannot roll back (`catalog`: MyISAM, Aria) is kept, so one is never run there either.
 */
export async function probeStatements (compiled: CompiledMapping, db: Database, today: string, out: Findings, writesProven = false, catalog?: LiveCatalog): Promise<{ ran: number, failed: number, skipped: number }> {
  let ran = 0
  let failed = 0
  let skipped = 0
  // Booking's claims lock a name, not a row of the mapping: nothing to prove, and a named lock
  // (MySQL's) would outlive the rolled-back probe.
  const seen = new Set(Object.values(claimStatements(compiled.dialect) ?? {}).map((s) => s.name))
  for (const statement of compiled.statements()) {
    if (seen.has(statement.name)) continue
    seen.add(statement.name)
    if (writesStatement(statement) && (!writesProven || nonTransactional(catalog?.table(statement.writes ?? '')) !== undefined)) { skipped++; continue }
    const place = placeOf(statement.name, compiled)
    try {
      await db.transaction(async (tx) => {
        await tx.query(statement, probeArgs(statement, today))
        throw new RolledBack()
      })
    } catch (err) {
      if (err instanceof RolledBack) { ran++; continue }
      // Values made up for the probe may break a key or a reference: the statement itself is sound.
      if (err instanceof ConflictError || (err instanceof InvalidInputError && !(err instanceof MissingValueError))) { ran++; continue }
      // A login that may only read: the write probe says writes were not proven.
      if (refusedAsReadOnly(err)) continue
      if (err instanceof DatabaseUnavailableError) throw err
      if (writesProven && writesStatement(statement) && !(err instanceof MissingValueError) && missingName(err) === undefined) { ran++; continue }
      failed++
      // The catalog pass already named this mistake (here, or in a table this statement joins).
      if (out.covers(place) || out.missing.has(missingName(err) ?? '')) continue
      out.problem(place, explain(err, statement.name))
    }
  }
  return { ran, failed, skipped }
}

/** Whether a statement writes: every INSERT, UPDATE and DELETE the compiler makes names its table (`writes`). */
export function writesStatement (statement: Statement): boolean {
  return statement.writes !== undefined || isWrite(statement.name)
}

// How each database names a missing column or table (SQLite, SQL Server, PostgreSQL, MariaDB/MySQL):
// the name without the statement's alias or schema.
const MISSING_COLUMN = [
  /no such column: (?:[\w"]+\.)?"?([^"\s]+)"?/, /has no column named (\S+)/, /Invalid column name '(?:[^']*\.)?([^'.]+)'/,
  /column "?(?:\w+\.)?([^".\s]+)"? (?:of relation "[^"]+" )?does not exist/, /Unknown column '(?:[^']*\.)?([^'.]+)'/
]
const MISSING_TABLE = [
  /no such table: (?:main\.)?(\S+)/, /Invalid object name '(?:[^']*\.)?([^'.]+)'/,
  /relation "(?:[^"]*\.)?([^".]+)" does not exist/, /Table '(?:[^']*\.)?([^'.]+)' doesn't exist/
]
const firstMatch = (patterns: RegExp[], text: string): string | undefined => {
  for (const p of patterns) { const m = p.exec(text); if (m) return m[1] }
  return undefined
}

export function missingName (err: unknown): string | undefined {
  const text = err instanceof Error ? err.message : String(err)
  return (firstMatch(MISSING_COLUMN, text) ?? firstMatch(MISSING_TABLE, text))?.toLowerCase()
}

/** The database's complaint in the mapping's words; quoted values are never repeated. */
const isWrite = (statement: string): boolean => /\.(insert|update|state|reschedule|key|history|log)/.test(statement)

export function explain (err: unknown, statement: string): string {
  const write = isWrite(statement)
  const what = write ? 'writing' : 'reading'
  if (err instanceof MissingValueError) {
    return `${what} leaves column \`${err.column ?? '?'}\` empty, but the database requires a value there (NOT NULL, no default): give it under \`write.set\``
  }
  const text = err instanceof Error ? err.message : String(err)
  const column = firstMatch(MISSING_COLUMN, text)
  if (column) return `${what} needs a column \`${column}\` that the database does not have`
  const table = firstMatch(MISSING_TABLE, text)
  if (table) return `${what} needs a table \`${table}\` that the database does not have`
  return `the database refused ${what === 'writing' ? 'the write' : 'the read'}: ${text.replace(/'[^']*'/g, "'…'").replace(/(?<![\w.])[a-z]\w{0,2}\./g, '').split('\n')[0]}`
}

/** The mapping place a statement comes from, by its name (`client.search[name]`, `relation.a~b`, …). */
export function placeOf (name: string, compiled: CompiledMapping): string {
  const [head, rest = ''] = name.split(/\.(.*)/s)
  if (head === 'relation') {
    const [names, at] = rest.split('.')
    const pair = names.split('~')
    const related = (r: { between: readonly string[] }): boolean => r.between.includes(pair[0]) && r.between.includes(pair[1])
    const i = at?.startsWith('at') === true ? Number(at.slice(2)) : compiled.model.doc.relations?.findIndex(related) ?? -1
    // A relation no entry of `relations` declares follows from a construct (`valuesOf`), at its place.
    return i >= 0 ? `/relations/${i}` : compiled.model.relations.find(related)?.path ?? '/relations'
  }
  if (head === 'availability') {
    const m = /^(weekly|dated|blocks)(?:\[(\d+)\])?/.exec(rest)
    if (!m) return '/availability'
    return m[1] === 'blocks' && Array.isArray(compiled.model.doc.availability?.blocks) ? `/availability/blocks/${m[2] ?? 0}` : `/availability/${m[1]}`
  }
  if (head === 'client' || head === 'appointment' || head in compiled.model.lookups) {
    if (rest.startsWith('write.slot')) return `/resources/${head}/write/slot`
    if (rest.startsWith('history')) return `/resources/${head}/write/history`
    const log = /^log\[(\d+)\]/.exec(rest)
    if (log) return `/resources/${head}/write/log/${log[1]}`
    return /^(insert|update|state|reschedule|key)/.test(rest) ? `/resources/${head}/write` : `/resources/${head}`
  }
  return ''
}

/** Inputs that make every statement valid to run: dates around today, tiny pages, a text that matches nothing. */
function probeArgs (statement: Statement, today: string): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  const from = addDays(today, -1)
  const to = addDays(today, 1)
  const named: Record<string, unknown> = {
    from,
    to,
    after: addDays(to, 1),
    fromInt: Number(from.replace(/-/g, '')),
    toInt: Number(to.replace(/-/g, '')),
    fromDatetime: `${from} 00:00:00`,
    afterDatetime: `${addDays(to, 1)} 00:00:00`,
    limit: 1,
    offset: 0
  }
  for (const p of statement.params) {
    if (!('input' in p.source)) continue
    const input = p.source.input
    if (input in named) { args[input] = named[input]; continue }
    args[input] = dummy(p.type, today)
  }
  return args
}

function dummy (type: string, today: string): unknown {
  switch (type) {
    case 'int': case 'bigint': case 'smallint': case 'decimal': return 1
    case 'bit': return 0
    case 'date': return today
    case 'datetime': return `${today} 08:00:00`
    case 'time': return '08:00:00'
    default: return 'x'
  }
}
