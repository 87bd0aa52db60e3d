// Slot-based booking: the appointment row holds no time, only a pointer to a time slot (which
// may itself hang from a block holding the professional and location). Booking is then
// *finding* the slot row — by its start and by the refs the appointment reads through it —
// and writing the pointer; rescheduling finds another slot the same way.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { AppointmentModel, MappingModel, Value } from '../model.js'
import type { JoinDoc, SqlTypeName } from '../schema.js'
import { CompileError, Scope } from './scope.js'
import { idType } from './key.js'

/** Refs a slot can decide (they are read through the slot's joins). */
export const SLOT_REFS = ['professional', 'location'] as const
export type SlotRef = typeof SLOT_REFS[number]

export interface SlotBooking {
  /** The appointment's column pointing at the slot, and its type. */
  column: { column: string, type: SqlTypeName }
  /** Refs the slot decides: never written to the appointment row. */
  refs: SlotRef[]
  /** The first slot starting at `start` (and held by the given refs); yields `id`. Built per set of refs. */
  lookup: (refs: SlotRef[]) => Statement
  /** The `start` input as the slot's column holds it. */
  start: (date: string, hour: string) => string
}

export function compileSlotBooking (model: MappingModel, dialect: Dialect): SlotBooking | undefined {
  const a = model.appointment
  const alias = a.write?.slot?.join
  if (alias === undefined) return undefined
  const path = `${a.path}/write/slot/join`
  const join = a.joins[alias]
  if (!join) throw new CompileError(path, `no join called \`${alias}\` in ${a.path}/joins`)
  const pairs = Object.entries(join.on)
  if (join.from !== undefined || pairs.length !== 1 || pairs[0][0].includes('.')) {
    throw new CompileError(path, 'the slot join must hang from the appointment table by one column (the pointer to the slot)')
  }
  const [pointer, slotKey] = pairs[0]

  // The slot's table as the root of its own statement: the joins below it keep their names.
  const below = descendants(a.joins, alias)
  const rerooted: Record<string, JoinDoc> = Object.fromEntries(below.map((name) => {
    const j = a.joins[name]
    return [name, { ...j, from: j.from === alias ? undefined : j.from }]
  }))
  const through = (v: Value | undefined): string | undefined => {
    const col = v?.column
    if (col === undefined || !col.includes('.')) return undefined
    const [head, rest] = [col.slice(0, col.indexOf('.')), col.slice(col.indexOf('.') + 1)]
    if (head === alias) return rest
    return below.includes(head) ? col : undefined
  }
  const startValue = a.start.datetime
  const startColumn = through(startValue)
  if (!startValue || startColumn === undefined) throw new CompileError(`${a.path}/start`, `with slot-based booking the start is a \`datetime\` column of the slot (\`${alias}.…\`)`)
  const textStart = startValue.format === 'text'
  const refs = SLOT_REFS.filter((r) => through(a.refs[r]) !== undefined)

  const built = new Map<string, Statement>()
  return {
    column: { column: pointer, type: 'int' },
    refs,
    start: (date, hour) => `${date} ${hour}:00`,
    lookup (wanted) {
      const key = wanted.filter((r) => refs.includes(r)).sort().join(',')
      let s = built.get(key)
      if (!s) {
        const scope = new Scope(dialect, { table: join.table, joins: rerooted, where: whereOf(join), path: `${a.path}/joins/${alias}` }, 's')
        const params = new ParamList(dialect)
        const where = [`${scope.ref(startColumn, startValue.path)} = ${params.input('start', textStart ? 'text' : 'datetime')}`]
        for (const r of wanted.filter((x) => refs.includes(x))) {
          const v = a.refs[r] as Value
          where.push(`${scope.ref(through(v) as string, v.path)} = ${params.input(r, v.type ?? refType(model, r))}`)
        }
        where.push(...scope.where(params))
        const keyRef = scope.ref(slotKey, path)
        s = {
          name: `appointment.write.slot[${key}]`,
          sql: dialect.select({ columns: [{ expr: keyRef, alias: 'id' }], from: { table: dialect.table(join.table), alias: 's' }, joins: scope.joins(params), where, orderBy: [keyRef], first: true }),
          params: params.params
        }
        built.set(key, s)
      }
      return s
    }
  }
}

function refType (model: MappingModel, r: SlotRef): SqlTypeName {
  const l = model.lookups[r]
  return l ? idType(l.key) : 'int'
}

function whereOf (j: JoinDoc): AppointmentModel['where'] {
  return j.where === undefined ? [] : Array.isArray(j.where) ? j.where : [j.where]
}

/** Joins hanging (directly or not) from `alias`. */
function descendants (joins: Record<string, JoinDoc>, alias: string): string[] {
  const out: string[] = []
  let frontier = [alias]
  // Each round adds joins one level further down; a join appears once, so this ends.
  for (let depth = 0; frontier.length > 0 && depth <= Object.keys(joins).length; depth++) {
    frontier = Object.entries(joins).filter(([name, j]) => j.from !== undefined && frontier.includes(j.from) && !out.includes(name)).map(([name]) => name)
    out.push(...frontier)
  }
  return out
}
