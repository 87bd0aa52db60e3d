// Where the state rules read the latest status-history row (a join of the appointment on the
// history table), the row a state change writes there must be the row read and must read as
// the state entered: otherwise every move answers 501. Refused at the mapping's line instead.
import type { ConditionDoc, JoinDoc } from '../schema.js'
import type { MappingModel } from '../model.js'
import { decided } from './row-conditions.js'
import { storedState } from './history.js'
import { CompileError } from './scope.js'
import type { ColumnValues } from './write-columns.js'
import { isAffixed, onPairs } from './join-on.js'

export function checkHistoryRead (model: MappingModel): void {
  const a = model.appointment
  const h = a.write?.history
  const rules = a.state.rules
  if (!h || !rules) return
  const read = new Set(rules.flatMap((r) => [...r.when ? columnsOf(r.when) : [], ...r.column ? [r.column] : []]).flatMap((c) => c.includes('.') ? [c.split('.')[0]] : []))
  const same = (x: string, y: string): boolean => x.toLowerCase() === y.toLowerCase()
  const readers = Object.entries(a.joins).filter(([alias, j]) => read.has(alias) && j.from === undefined && same(j.table, h.table) &&
    onPairs(j.on).some((p) => !isAffixed(p) && same(p.local, a.key.column) && same(p.remote, h.key)))
  const path = `${a.path}/write/history`
  const open = h.open
  if (readers.length > 0 && open === undefined) {
    throw new CompileError(path, `the state rules read this history through \`${readers[0][0]}\`, but no row is written for the state entered (\`open\`): the latest row would be one a change leaves, and the appointment would read as the state it left`)
  }
  if (open === undefined) return
  const stateColumn = Object.entries(open).find(([, w]) => 'state' in w)?.[0]
  for (const [alias, j] of readers) {
    latestIsWritten(alias, j, h.current, a.path)
    for (const state of model.states.values) {
      // What decides the rules before anything runs: the constants the appointment row and the history row get.
      const values: ColumnValues = constants(a.write?.states?.[state])
      for (const [column, w] of Object.entries(open)) {
        if ('value' in w) values[`${alias}.${column}`] = w.value
        // `state: left` is refused in an `open` row at load (written-values.ts).
        if ('state' in w && w.state !== 'left') values[`${alias}.${column}`] = w.state === true ? storedState(model, state) : w.state[state] ?? null
      }
      const at = stateColumn === undefined ? `${path}/open` : `${path}/open/${stateColumn}`
      const written = stateColumn === undefined ? 'the row it opens' : `\`${String(values[`${alias}.${stateColumn}`])}\` in ${stateColumn}`
      const outcome = readAs(rules, values)
      if (outcome === undefined) continue // depends on what only the database holds: the move's read-back says
      if (outcome === null) throw new CompileError(at, `entering ${state} writes ${written}, which no state rule reads: the appointment would read as no state`)
      if (!same(String(outcome.value), state)) {
        throw new CompileError(at, `entering ${state} writes ${written}, which the state rules read as ${String(outcome.value)} (${a.state.path}/rules/${outcome.rule}): write the code the rules read for ${state}`)
      }
    }
  }
}

// The just-written row must be the first `first` picks: the latest by date, and of two written in
// one second (a booking confirmed at once) the newer, by a key ordered descending.
function latestIsWritten (alias: string, j: JoinDoc, current: ConditionDoc | ConditionDoc[] | undefined, at: string): void {
  const path = `${at}/joins/${alias}`
  if (!j.first) {
    // Without `first` only a `where` holding `current` picks one row: the open one.
    if (current !== undefined && holds(j.where, current)) return
    throw new CompileError(path, `\`${alias}\` reads the status history the state rules read: give it \`first\` (the latest row: \`by: [{ column: <date>, desc: true }, { column: <key>, desc: true }]\`) or a \`where\` holding the history's \`current\`, or an appointment with several rows is read several times`)
  }
  const key = j.first.key
  const byKey = (j.first.by ?? []).map((b) => typeof b === 'string' ? { column: b, desc: false } : b).find((b) => b.column.toLowerCase() === key.toLowerCase())
  if (byKey?.desc !== true) {
    throw new CompileError(`${path}/first`, `\`${alias}\` reads the latest status-history row: end \`by\` with \`{ column: ${key}, desc: true }\`, or of two rows written in the same second the older is read`)
  }
}

/** Whether the join's `where` requires every condition of `current` (the same conditions, columns in any case). */
function holds (where: ConditionDoc | ConditionDoc[] | undefined, current: ConditionDoc | ConditionDoc[]): boolean {
  const key = (c: ConditionDoc): string => JSON.stringify(c, (k, v: unknown) => k === 'column' && typeof v === 'string' ? v.toLowerCase() : v)
  const have = new Set((where === undefined ? [] : Array.isArray(where) ? where : [where]).map(key))
  return (Array.isArray(current) ? current : [current]).every((c) => have.has(key(c)))
}

/** The first rule deciding: its index and constant outcome; null when none holds; undefined when the constants cannot tell. */
function readAs (rules: NonNullable<MappingModel['appointment']['state']['rules']>, values: ColumnValues): { rule: number, value: unknown } | null | undefined {
  for (const [i, r] of rules.entries()) {
    const holds = r.when === undefined ? true : decided(r.when, values)
    if (holds === undefined) return undefined
    if (!holds) continue
    const value = r.value ?? (typeof r.then === 'object' && r.then !== null ? r.then.value : undefined)
    return value === undefined ? undefined : { rule: i, value }
  }
  return null
}

function columnsOf (c: ConditionDoc): string[] {
  if ('all' in c) return c.all.flatMap(columnsOf)
  if ('any' in c) return c.any.flatMap(columnsOf)
  if ('not' in c) return columnsOf(c.not)
  return [c.column]
}

function constants (entries: Record<string, object> | undefined): ColumnValues {
  return Object.fromEntries(Object.entries(entries ?? {}).flatMap(([c, w]) => 'value' in w ? [[c, (w as { value: unknown }).value]] : []))
}
