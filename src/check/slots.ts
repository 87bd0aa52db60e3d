// Slot-based booking (`write.slot`) against the stored data: capacities the booking cannot
// read (or that close a slot), slots already holding more appointments than they take,
// blocks that accept no service (never offered when a service is asked for), appointments
// whose service their block does not accept. Counts and ids only: never a patient's value.
import type { Database, Row } from '../db/database.js'
import type { MappingModel, Value } from '../mapping/model.js'
import { whereList } from '../mapping/model.js'
import type { JoinDoc } from '../mapping/schema.js'
import { Scope, type ScopeSource } from '../mapping/compile/scope.js'
import { conditionSql } from '../mapping/compile/condition.js'
import { valueSql } from '../mapping/compile/value.js'
import { ParamList, type Statement } from '../sql/statement.js'
import { count, scanTable, Tally, type ScanClock } from './scan.js'
import type { Findings } from './findings.js'
import type { LiveCatalog } from '../db/columns.js'

type SlotDoc = NonNullable<NonNullable<MappingModel['appointment']['write']>['slot']>

/** The slot table as the root of its own statements, with the joins that hang below it. */
interface SlotTable {
  doc: SlotDoc
  path: string
  source: ScopeSource
  /** The appointment's column pointing at the slot, and the slot's column it points at. */
  pointer: string
  slotKey: string
  /** `slot.X` → `X`, `block.X` → `block.X` (a join below the slot), as the slot's statements name it. */
  through: (col: string) => string | undefined
}

function slotTable (model: MappingModel): SlotTable | undefined {
  const a = model.appointment
  const doc = a.write?.slot
  const join = doc ? a.joins[doc.join] : undefined
  if (!doc || !join) return undefined
  const pair = Object.entries(join.on)
  if (pair.length !== 1 || join.from !== undefined) return undefined // the compiler says why
  const below: string[] = []
  let frontier = [doc.join]
  while (frontier.length > 0) {
    frontier = Object.entries(a.joins).filter(([name, j]) => j.from !== undefined && frontier.includes(j.from) && !below.includes(name)).map(([name]) => name)
    below.push(...frontier)
  }
  const joins: Record<string, JoinDoc> = Object.fromEntries(below.map((name) => [name, { ...a.joins[name], from: a.joins[name].from === doc.join ? undefined : a.joins[name].from }]))
  const through = (col: string): string | undefined => {
    const dot = col.indexOf('.')
    if (dot < 0) return undefined
    const head = col.slice(0, dot)
    return head === doc.join ? col.slice(dot + 1) : below.includes(head) ? col : undefined
  }
  return {
    doc,
    path: `${a.path}/write/slot`,
    source: { table: join.table, joins, where: whereList(join.where), path: `${a.path}/joins/${doc.join}` },
    pointer: pair[0][0],
    slotKey: pair[0][1],
    through
  }
}

/** `{ expr, params }` builders share one statement's parameter list. */
function statement (name: string, db: Database, source: ScopeSource, build: (scope: Scope, params: ParamList) => { columns: { expr: string, alias: string }[], where: string[], groupBy?: string[], having?: string[] }): Statement {
  const d = db.dialect
  const scope = new Scope(d, source, 't')
  const params = new ParamList(d)
  const { columns, where, groupBy, having } = build(scope, params)
  const sql = d.select({ columns, from: { table: d.table(source.table), alias: 't' }, joins: scope.joins(params), where: [...scope.where(params), ...where], groupBy, having, orderBy: [] })
  return { name, sql, params: params.params }
}

/** "The block accepts `service`" (or, without `service`, accepts any), as booking asks it (compile/slot-booking.ts). */
function acceptsSql (doc: NonNullable<SlotDoc['services']>, path: string, local: (col: string) => string, scope: Scope, params: ParamList, service?: string): string {
  const d = scope.dialect
  if (doc.table === undefined) {
    const column = local(doc.column)
    return service === undefined ? d.isNotNull(column) : `${column} = ${service}`
  }
  const child = scope.child(doc.table, `${path}/services`)
  const match = [
    ...Object.entries(doc.on ?? {}).map(([l, remote]) => `${d.column(child.alias, remote)} = ${local(l)}`),
    ...(service === undefined ? [] : [`${d.column(child.alias, doc.column)} = ${service}`]),
    ...whereList(doc.where).map((w, i) => conditionSql(w, child, params, `${path}/services/where/${i}`))
  ]
  return d.exists(d.select({ columns: [{ expr: '1', alias: 'x' }], from: { table: d.table(doc.table), alias: child.alias }, joins: [], where: match, orderBy: [] }))
}

export async function checkSlots (model: MappingModel, db: Database, catalog: LiveCatalog, out: Findings, clock: ScanClock, inTime: (what: string, place: string) => boolean): Promise<void> {
  const slot = slotTable(model)
  if (!slot || out.covers(slot.path) || out.covers(slot.source.path)) return
  const a = model.appointment
  const d = db.dialect
  const run = async (s: Statement): Promise<Row[] | undefined> => {
    try { return await db.query(s) } catch { return undefined } // the probes already said why
  }
  const capacity = slot.doc.capacity
  const capacityColumn = typeof capacity === 'object' ? slot.through(capacity.column) : undefined

  // Capacities, slot by slot: the whole table, in batches.
  if (capacityColumn !== undefined && inTime('slot capacities', `${slot.path}/capacity`)) {
    const empty = new Tally()
    const closed = new Tally()
    const unreadable = new Tally()
    const result = await scanTable(db, {
      what: 'slots',
      source: slot.source,
      key: [{ column: slot.slotKey, type: catalog.table(slot.source.table)?.columns.get(slot.slotKey.toLowerCase())?.kind === 'text' ? 'ntext' : 'int', path: `${slot.path}/join` }],
      visit (scope, _params, cols) {
        const id = cols.add(scope.ref(slot.slotKey, `${slot.path}/join`))
        const seats = cols.add(scope.ref(capacityColumn, `${slot.path}/capacity/column`))
        return (row) => {
          const x = row[seats]
          const label = `slot id ${String(row[id]).trim()}`
          if (x === null || x === undefined || (typeof x === 'string' && x.trim() === '')) empty.add(label)
          else if (!Number.isFinite(Number(x)) || !Number.isInteger(Number(x))) unreadable.add(label)
          else if (Number(x) <= 0) closed.add(label)
        }
      }
    }, clock).catch(() => undefined)
    if (result) {
      const at = `${slot.path}/capacity/column`
      const part = result.complete ? '' : ` (in the first ${count(result.scanned)} of ${count(result.total)} slots)`
      if (unreadable.n > 0) out.problem(at, `${count(unreadable.n)} slot${unreadable.n === 1 ? ' has a capacity' : 's have capacities'} that ${unreadable.n === 1 ? 'is' : 'are'} not a whole number${part}${unreadable.eg}: each is taken as 1 place`)
      if (empty.n > 0) out.warning(at, `${count(empty.n)} slot${empty.n === 1 ? ' has no capacity' : 's have no capacity'} (NULL)${part}${empty.eg}: each is taken as 1 place`)
      if (closed.n > 0) out.warning(at, `${count(closed.n)} slot${closed.n === 1 ? ' has' : 's have'} a capacity of 0 or less${part}${closed.eg}: closed, never offered or booked`)
      if (unreadable.n + empty.n + closed.n === 0) out.ok(at, `${count(result.scanned)} slots, every capacity readable`)
    }
  }

  // Slots already holding more appointments than they take (states that free a slot left out).
  if (inTime('slots over capacity', `${slot.path}/capacity`)) {
    const fixed = typeof capacity === 'number' ? capacity : capacity === undefined ? 1 : undefined
    const rows = await run(statement('slot.over', db, a, (scope, params) => {
      const pointer = scope.ref(slot.pointer, `${slot.path}/join`)
      const state = valueSql(a.state, scope, params)
      const free = model.states.free.map((s) => params.constant(s, 'text'))
      const seats = capacity !== undefined && typeof capacity === 'object' ? scope.ref(capacity.column, `${slot.path}/capacity/column`) : undefined
      return {
        columns: [{ expr: pointer, alias: 'slot' }, ...(seats ? [{ expr: seats, alias: 'seats' }] : []), { expr: d.count(), alias: 'n' }],
        where: free.length > 0 ? [`(${d.or([d.isNull(state), d.notIn(state, free)])})`] : [],
        groupBy: seats ? [pointer, seats] : [pointer],
        having: [`${d.count()} > ${params.constant(fixed ?? 1, 'int')}`]
      }
    }))
    if (rows) {
      const over = new Tally()
      for (const r of rows.sort((x, y) => String(x.slot).localeCompare(String(y.slot), 'en', { numeric: true }))) {
        const seats = fixed ?? (r.seats === null || r.seats === undefined || String(r.seats).trim() === '' ? 1 : Number.isFinite(Number(r.seats)) ? Math.max(0, Math.floor(Number(r.seats))) : 1)
        if (Number(r.n) > seats) over.add(`slot id ${String(r.slot).trim()}`)
      }
      if (over.n > 0) out.warning(`${slot.path}/capacity`, `${count(over.n)} slot${over.n === 1 ? ' holds' : 's hold'} more appointments than ${over.n === 1 ? 'it takes' : 'they take'}${over.eg}: booking refuses them until some are cancelled`)
    }
  }

  const services = slot.doc.services
  if (!services || !a.refs.service || out.covers(`${slot.path}/services`)) return
  const spath = `${slot.path}/services`

  // Blocks that accept no service: never offered when /availability is asked for one.
  const firstLocal = services.table !== undefined ? Object.keys(services.on ?? {})[0] : services.column
  const blockColumn = firstLocal === undefined ? undefined : slot.through(firstLocal)
  if (blockColumn !== undefined && inTime('blocks accepting no service', spath)) {
    const rows = await run(statement('slot.services.none', db, slot.source, (scope, params) => {
      const local = (col: string) => scope.ref(slot.through(col) ?? col, spath)
      const block = services.table !== undefined ? scope.ref(blockColumn, spath) : scope.ref(slot.slotKey, spath)
      const none = d.caseWhen([{ when: acceptsSql(services, slot.path, local, scope, params), then: d.null }], block)
      return { columns: [{ expr: d.countDistinct(block), alias: 'blocks' }, { expr: d.countDistinct(none), alias: 'none' }, { expr: d.min(none), alias: 'example' }], where: [] }
    }))
    const r = rows?.[0]
    if (r && Number(r.none) > 0) {
      const what = services.table !== undefined ? 'block' : 'slot'
      const text = `${count(Number(r.none))} of ${count(Number(r.blocks))} ${what}s accept no service (no row in \`${services.table ?? services.column}\`), e.g. ${what} ${String(r.example).trim()}: never offered when a service is asked for`
      if (Number(r.none) === Number(r.blocks)) out.problem(spath, `${text}; none accepts any, so check \`on\`, \`column\` and \`where\``)
      else out.warning(spath, text)
    }
  }

  // Appointments whose block does not accept their service (booked before the rule, or by hand).
  if (inTime('appointments with a service their block does not accept', spath)) {
    const rows = await run(statement('slot.services.refused', db, a, (scope, params) => {
      const service = valueSql(a.refs.service as Value, scope, params)
      const accepts = acceptsSql(services, slot.path, (col) => scope.ref(col, spath), scope, params, service)
      const key = scope.ref(a.key.parts[0].column, `${a.path}/key`)
      return { columns: [{ expr: d.count(), alias: 'n' }, { expr: d.min(key), alias: 'example' }], where: [d.isNotNull(service), d.not(accepts)] }
    }))
    const r = rows?.[0]
    if (r && Number(r.n) > 0) {
      out.warning(spath, `${count(Number(r.n))} appointment${Number(r.n) === 1 ? ' has a service its block does not' : 's have a service their block does not'} accept, e.g. id ${String(r.example).trim()}: listed as stored; a new booking like ${Number(r.n) === 1 ? 'it' : 'them'} would be refused`)
    }
  }
}
