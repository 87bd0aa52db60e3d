// What the write probe compares beside the row a change writes: the row it leaves behind in
// the history table (`write.history.left`: the state left, the appointment's columns as they
// were, read before the change) and the stamps of the joined rows a client correction changes
// (`update` of a `before`/`after` entry). Each difference is said at the mapping line writing
// the column, in words that never repeat what a row holds (it may be a patient's).
import type { Database } from '../db/database.js'
import type { LiveCatalog } from '../db/columns.js'
import { storedRow, type AppointmentWritePlans, type ClientPatch, type CompiledMapping } from '../mapping/compile/index.js'
import { differences, same, steady, type Columns } from './stored-compare.js'

export interface Misplaced { place: string, why: string }

type LeftRowPlan = NonNullable<NonNullable<AppointmentWritePlans['history']>['left']>

/**
 * Runs `change` (a move of the appointment `id` from state `left` into `entered`, or a
 * reschedule) and compares the history row it adds with what `left` says: undefined where
 * the mapping writes none for this change; else the differences (none: the row is as mapped).
 */
export async function comparedLeftRow (compiled: CompiledMapping, plans: AppointmentWritePlans, db: Database, catalog: LiveCatalog, id: string, move: { left: string, entered: string, change: 'state' | 'reschedule', what: string },
  change: () => Promise<unknown>): Promise<Misplaced[] | undefined> {
  const plan = plans.history?.left
  const writes = plan !== undefined && (move.change === 'reschedule' ? plan.on.reschedule || (plan.on.state && move.left !== move.entered) : plan.on.state)
  if (!plan || !writes) {
    await change()
    return undefined
  }
  const a = compiled.model.appointment
  const at = `${a.path}/write/history/left`
  const table = a.write?.history?.table ?? ''
  const rowsNow = async (): Promise<Columns[]> => {
    const r = plan.rows(id)
    return r ? (await db.query(r.bound.statement, r.bound.args)).map(r.read) : []
  }
  const before = await rowsNow()
  const was = await asItWas(compiled, plan, db, id)
  await change()
  // The rows the change added: those after it that no row before it accounts for.
  const added = await rowsNow()
  for (const row of before) {
    const i = added.findIndex((r) => Object.keys(row).every((c) => same(r[c], row[c])))
    if (i >= 0) added.splice(i, 1)
  }
  if (added.length === 0) return [{ place: at, why: `${move.what} added no row to \`${table}\` for the appointment, where \`left\` says it adds the row it leaves behind` }]
  const expected = steady((now) => plan.values(id, move.left, move.entered, now) ?? {})
  // Of the rows added (an `open` row may go to the same table), the one closest to what `left` says.
  const each = added.map((row) => [
    ...differences(expected, row, catalog.table(table)).map((d) => ({ place: `${at}/${d.column}`, why: `${move.what}: ${d.why}` })),
    ...plan.copies.flatMap((c) => {
      const value = was[c.before] ?? (c.otherwise === undefined ? null : was[c.otherwise])
      const from = c.otherwise === undefined ? `\`${c.before}\`` : `\`${c.before}\` (else \`${c.otherwise}\`)`
      return same(row[c.column], value) ? [] : [{ place: `${c.path}/before`, why: `${move.what}: column \`${c.column}\` of \`${table}\` should hold the appointment's ${from} as it was before the change, but holds something else (a trigger, a default or the column's type changed it)` }]
    })
  ])
  return each.reduce((best, found) => found.length < best.length ? found : best)
}

/** The appointment's columns the `left` row copies, as they stand before the change. */
async function asItWas (compiled: CompiledMapping, plan: LeftRowPlan, db: Database, id: string): Promise<Columns> {
  const columns = [...new Set(plan.copies.flatMap((c) => c.otherwise === undefined ? [c.before] : [c.before, c.otherwise]))]
  if (columns.length === 0) return {}
  const row = storedRow(compiled.model.appointment, columns, compiled.dialect)
  const bound = row.bind(id)
  const [found] = bound ? await db.query(bound.statement, bound.args) : []
  return found === undefined ? {} : row.read(found)
}

/**
 * The stamps a client correction wrote on each joined row it changed: the constants and
 * settings as mapped, every `now` stamp holding a value (its instant is the database's).
 */
export async function comparedStamps (compiled: CompiledMapping, patch: ClientPatch, db: Database, catalog: LiveCatalog, id: string, what: string): Promise<Misplaced[]> {
  const c = compiled.model.client
  const found: Misplaced[] = []
  for (const s of patch.stamped) {
    const entry = placeOf(compiled, s.alias)
    const table = c.joins[s.alias]?.table ?? s.alias
    const bound = s.read(id)
    const [row] = bound ? await db.query(bound.statement, bound.args) : []
    if (row === undefined) {
      found.push({ place: entry, why: `${what}: the \`${s.alias}\` row the correction changed is not found afterwards` })
      continue
    }
    const stored = Object.fromEntries(s.columns.map((col, i) => [col, row[`c${i}`]]))
    const expected = steady(s.touched)
    for (const d of differences(expected, stored, catalog.table(table))) found.push({ place: `${entry}/${d.column}`, why: `${what}: ${d.why}` })
    for (const col of s.columns.filter((x) => !(x in expected) && (stored[x] === null || stored[x] === undefined))) {
      found.push({ place: `${entry}/${col}`, why: `${what}: column \`${col}\` of \`${table}\` holds no stamp after the correction (NULL)` })
    }
  }
  return found
}

/** The `update` of the client's `before`/`after` entry writing the joined row `alias`. */
function placeOf (compiled: CompiledMapping, alias: string): string {
  const c = compiled.model.client
  for (const when of ['before', 'after'] as const) {
    const i = (c.write?.[when] ?? []).findIndex((r) => r.join === alias)
    if (i >= 0) return `${c.path}/write/${when}/${i}/update`
  }
  return `${c.path}/write`
}
