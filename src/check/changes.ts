// `ponte check` of change detection: what one poll costs on this database (the window's
// appointments counted today, the statement, whether an index serves its range), whether the
// rows a minute it reads are reasonable, and whether a declared marker moves when the desk
// updates a row (tried inside a rolled-back transaction).
import type { Database } from '../db/database.js'
import { nonTransactional, type LiveCatalog } from '../db/columns.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import { addDays } from '../normalise/datetime.js'
import { storedRow } from '../mapping/compile/index.js'
import { inRolledBack } from './rolled-back.js'
import { indexToCreate } from './indexes.js'
import type { Findings } from './findings.js'

/** Rows a minute above which polling is itself a load on the clinic's database. */
export const ROWS_A_MINUTE = 50_000

const n = (x: number): string => x.toLocaleString('en-US')

/** `write`: whether the marker may be tried by an update (rolled back); off with `--no-write-probe`. */
export async function checkChanges (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, today: string, out: Findings, write: boolean): Promise<void> {
  const a = compiled.model.appointment
  const changes = a.changes
  const plans = compiled.changes
  if (changes === undefined || plans === undefined) return
  const at = `${a.path}/changes`
  const from = addDays(today, -changes.daysBefore)
  const to = addDays(today, changes.daysAfter)
  const bound = plans.windowCount.bind({ from, to })
  let rows = 0
  try {
    const [row] = bound === undefined ? [] : await db.query(bound.statement, bound.args)
    rows = row === undefined ? 0 : plans.windowCount.read(row)
  } catch (err) {
    out.problem(at, `the window cannot be read (${(err as Error).message}): no poll would run`)
    return
  }
  const list = compiled.appointments({ filters: [], minimal: false }).statement.name
  const start = (a.start.datetime ?? a.start.date)?.column
  const create = start === undefined ? undefined : indexToCreate(catalog, compiled.dialect, a.table, start)
  const every = changes.pollMs / 1000
  const windowEvery = changes.marker?.windowEvery ?? 1
  out.ok(at, `one window pass reads ${n(rows)} appointments today (${from} to ${to}) with \`${list}\`` +
    (create === undefined ? ', its range served by an index' : '') + (changes.marker ? `, every ${windowEvery} polls of ${every} s` : `, every ${every} s`))
  if (create !== undefined) out.warning(at, `column \`${start ?? ''}\` of table \`${a.table}\` has no index: each window pass reads the whole table; create one: ${create}`)
  const perMinute = Math.round(rows * 60 / (every * windowEvery))
  if (perMinute > ROWS_A_MINUTE) {
    out.warning(at, `polling reads about ${n(perMinute)} rows a minute (more than ${n(ROWS_A_MINUTE)}): raise \`pollSeconds\` to ${Math.ceil(rows * 60 / (ROWS_A_MINUTE * windowEvery))} or more, narrow the \`window\`, or declare a \`marker\` so most polls read only what changed`)
  }
  if (changes.marker === undefined) return
  try {
    await checkMarker(compiled, db, catalog, out, write)
  } catch (err) {
    // A missing column or a failing statement is said at its line already.
    if (out.problems.length === 0) out.problem(changes.marker.path, `the marker cannot be read (${(err as Error).message})`)
  }
}

/** Whether the marker moves when the desk updates a row's state (rolled back); its index is advised with the other seeks (indexes.ts). */
async function checkMarker (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, out: Findings, write: boolean): Promise<void> {
  const a = compiled.model.appointment
  const marker = a.changes?.marker
  const plans = compiled.changes
  if (marker === undefined || plans?.marked === undefined || plans.lastMarker === undefined) return
  if (marker.inserts) return // a key does not move on update, by declaration
  const touch = plans.touch
  if (!write) {
    out.notProven(marker.path, 'marker not proven to move on update: the write probe was turned off (--no-write-probe)')
    return
  }
  if (touch === undefined) {
    out.notProven(marker.path, 'marker not proven to move on update: the state is not a column of the appointment\'s table with two codes to update it between')
    return
  }
  const engine = nonTransactional(catalog.table(a.table))
  if (engine !== undefined) {
    out.notProven(marker.path, `marker not proven to move on update: table \`${a.table}\` is ${engine}, which cannot roll back, so check does not update it`)
    return
  }
  const marked = plans.marked
  const lastMarker = plans.lastMarker
  const stored = storedRow(a, [marker.column], compiled.dialect)
  const said = await inRolledBack(db, { catalog }, async (tx) => {
    const [top] = await tx.query(lastMarker.statement, {})
    const newest = top === undefined ? undefined : lastMarker.read(top)
    const bound = newest === undefined ? undefined : marked.bind({ after: newest })
    const row = bound === undefined ? undefined : marked.read((await tx.query(bound.statement, bound.args))[0] ?? {})
    if (row === undefined) return 'none'
    const code = Object.keys(touch.codes).find((c) => touch.codes[c] !== row.state)
    const readBound = stored.bind(row.id)
    const update = code === undefined ? undefined : touch.bind(row.id, code)
    if (readBound === undefined || update === undefined) return 'none'
    const read = async (): Promise<string> => asText(stored.read((await tx.query(readBound.statement, readBound.args))[0] ?? {})[marker.column])
    const before = await read()
    await tx.query(update.statement, update.args)
    return before === await read() ? 'still' : 'moved'
  })
  if (said === 'none') out.notProven(marker.path, 'marker not proven to move on update: no appointment to update')
  else if (said === 'still') out.warning(marker.path, `marker column \`${marker.column}\` did not change when an appointment's state was updated (rolled back): a desk update would be missed until the next window pass; have the database set it on every update (a trigger, or MariaDB's automatic update of a timestamp column)`)
  else out.ok(marker.path, `marker column \`${marker.column}\` moves when an appointment is updated (tried, rolled back)`)
}

function asText (v: unknown): string {
  if (v instanceof Date) return String(v.getTime())
  if (Buffer.isBuffer(v)) return v.toString('hex')
  return String(v)
}
