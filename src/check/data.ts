// The data half of `ponte check`: what the mapping makes of the rows actually stored —
// keys that repeat, joins that multiply rows, state codes nobody mapped, dates and ids the
// readers cannot use. Only counts, codes and ids are printed: never a patient's value.
import type { Database, Row } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { TableModel } from '../mapping/model.js'
import { rangeArgs } from '../mapping/compile/appointment.js'
import { Scope } from '../mapping/compile/scope.js'
import { keyText } from '../mapping/compile/key.js'
import { ParamList, type Statement } from '../sql/statement.js'
import { addDays } from '../normalise/datetime.js'
import { Catalog } from '../services/catalog.js'
import type { Findings } from './findings.js'
import { missingName, placeOf } from './probes.js'

export interface DataOptions {
  today: string
  /** Stop starting new scans after this long (ms); what was not scanned is said. */
  budgetMs: number
  progress?: (what: string) => void
}

export async function checkData (compiled: CompiledMapping, db: Database, out: Findings, opts: DataOptions): Promise<void> {
  const { model } = compiled
  const deadline = Date.now() + opts.budgetMs
  const inTime = (what: string): boolean => {
    if (Date.now() <= deadline) { opts.progress?.(what); return true }
    out.warning('', `${what}: not scanned (the time budget ran out; raise --budget)`)
    return false
  }
  const run = async (statement: Statement, args?: Record<string, unknown>): Promise<Row[] | undefined> => {
    try {
      return await db.query(statement, args)
    } catch (err) {
      const place = placeOf(statement.name, compiled)
      if (!out.covers(place) && !out.missing.has(missingName(err) ?? '')) out.problem(place, `the database refused the read (${(err as Error).name})`)
      return undefined
    }
  }

  // Keys that repeat, and joins that give one row several partners (lists would repeat it).
  let multiplying = false
  const tables: TableModel[] = [model.appointment, model.client, ...Object.values(model.lookups).filter((l): l is NonNullable<typeof l> => l !== undefined)]
  for (const t of tables) {
    if (out.covers(t.path) || !inTime(`${t.path.split('/').pop()}: keys and joins`)) continue
    const base = await run(countStatement(compiled, t))
    if (base?.[0] && Number(base[0].n) > Number(base[0].k)) {
      out.problem(`${t.path}/key`, `the key is not unique: ${Number(base[0].n) - Number(base[0].k)} of ${Number(base[0].n)} rows repeat another row's key`)
    }
    for (const alias of Object.keys(t.joins)) {
      const got = await run(countStatement(compiled, t, alias))
      if (!got?.[0]) continue
      const n = Number(got[0].n)
      const k = Number(got[0].k)
      if (n > k) multiplying = true
      if (n > k) out.problem(`${t.path}/joins/${alias}`, `join \`${alias}\` multiplies rows: ${k} ${t.path.split('/').pop()} rows become ${n} (each would be listed several times); its \`on\` columns must name one row of \`${t.joins[alias].table}\``)
    }
  }

  // State codes over the whole table, not a window: each unmapped code with its count and an example id.
  const a = model.appointment
  if (a.state.column !== undefined && a.state.map && !a.state.column.includes('.') && !out.covers(a.path) && inTime('appointment: state codes')) {
    const rows = await run(groupStatement(compiled, a, a.state.column))
    const mapped = new Set(Object.keys(a.state.map).map((k) => k.trimEnd().toUpperCase()))
    for (const r of rows ?? []) {
      if (r.code === null || r.code === undefined) continue
      const code = String(r.code).trimEnd()
      if (mapped.has(code.toUpperCase()) || (a.state.nullIf ?? []).some((s) => String(s) === code)) continue
      out.problem(`${a.state.path}/map`, `stored ${a.state.column} ${code} is not mapped: ${Number(r.n)} rows, e.g. id ${String(r.example)}`)
    }
  }

  // Lookups: every row needs a readable id.
  for (const lookup of compiled.lookups) {
    const place = placeOf(lookup.all.name, compiled)
    if (out.covers(place) || !inTime(lookup.name)) continue
    const rows = await run(lookup.all)
    if (!rows) continue
    const unreadable = rows.filter((r) => lookup.read(r) === undefined).length
    if (unreadable > 0) out.problem(place, `${unreadable} of ${rows.length} rows have no readable id`)
    else out.ok(place, `${rows.length} rows`)
  }

  let snap: Awaited<ReturnType<Catalog['snapshot']>> | undefined
  try { snap = await new Catalog(compiled, db).snapshot() } catch { snap = undefined }
  for (const edge of compiled.edges) {
    if (!edge.pairs || !edge.readPair) continue
    const place = placeOf(edge.pairs.name, compiled)
    if (out.covers(place)) continue
    const rows = await run(edge.pairs)
    if (!rows) continue
    const pairs = rows.map((r) => edge.readPair?.(r)).filter((p): p is [string, string] => p !== undefined)
    const [x, y] = edge.between
    const dangling = snap ? pairs.filter(([p, q]) => (x !== 'plan' && !snap.record(x as never, p)) || (y !== 'plan' && !snap.record(y as never, q))).length : 0
    out.ok(place, `${pairs.length} pairs${dangling > 0 ? ` (${dangling} name a ${x} or ${y} that does not exist; ignored)` : ''}`)
  }

  if (!out.covers(model.client.path) && inTime('client: first rows')) {
    const rows = await run(compiled.clients.page, { limit: 1000, offset: 0 })
    if (rows) {
      const clients = rows.flatMap((r) => compiled.clients.read(r) ?? [])
      const noPhone = clients.filter((c) => !c.phone).length
      const noName = clients.filter((c) => c.name === '').length
      out.ok(model.client.path, `first ${clients.length} rows read; ${noPhone} without a readable phone${noName > 0 ? `; ${noName} without a name` : ''}`)
    }
  }

  const from = addDays(opts.today, -30)
  const to = addDays(opts.today, 30)
  if (!out.covers(a.path) && inTime('appointment: 60 days around today')) {
    const shape = compiled.appointments({ filters: [], minimal: false })
    const rows = await run(shape.statement, rangeArgs(from, to))
    if (rows) {
      const read = rows.map((r) => shape.read(r))
      const dropped = rows.filter((_, i) => read[i] === undefined).map((r) => String(r.c0))
      const unknown = read.filter((x) => x?.state === 'UNKNOWN').map((x) => x?.id)
      const ids = read.flatMap((x) => x ? [x.id] : [])
      const repeated = ids.length - new Set(ids).size
      if (dropped.length > 0) out.problem(`${a.path}/start`, `${dropped.length} of ${rows.length} rows between ${from} and ${to} have an unreadable date or hour (ids ${dropped.slice(0, 10).join(', ')})`)
      if (unknown.length > 0) out.problem(a.state.path, `${unknown.length} rows between ${from} and ${to} have a state the mapping does not map (ids ${unknown.slice(0, 10).join(', ')})`)
      // A join already reported as multiplying rows is why: not a second finding.
      if (repeated > 0 && !multiplying) out.problem(a.path, `${repeated} appointments between ${from} and ${to} are listed more than once: a join gives them several rows`)
      if (dropped.length === 0 && unknown.length === 0 && repeated === 0) out.ok(a.path, `${rows.length} rows between ${from} and ${to}, all readable`)
      const dangling = snap ? read.filter((x) => x && (['professional', 'location', 'service'] as const).some((k) => x.refs[k] !== undefined && !snap.record(k, x.refs[k] as string))).length : 0
      if (dangling > 0) out.warning(`${a.path}/refs`, `${dangling} rows name a professional, location or service that is not listed (deleted or filtered out)`)
    }
  }

  const av = compiled.availability
  const sources = av ? [av.weekly, av.dated, ...av.blocks].filter((p): p is NonNullable<typeof p> => p !== undefined) : []
  for (const source of sources) {
    const place = placeOf(source.statement.name, compiled)
    if (out.covers(place) || !inTime(place)) continue
    const got = await run(source.statement, rangeArgs(from, to))
    if (!got) continue
    const unreadable = got.filter((r) => source.read(r) === undefined).length
    const blocks = source.statement.name.startsWith('availability.blocks')
    if (unreadable > 0) out.problem(place, `${unreadable} of ${got.length} rows between ${from} and ${to} cannot be read (dates, hours or ids); they ${blocks ? 'block' : 'offer'} nothing`)
    else out.ok(place, `${got.length} rows between ${from} and ${to}, all readable`)
  }
}

/** COUNT(*) against COUNT(DISTINCT key) over the table's rows, alone or with one join. */
function countStatement (compiled: CompiledMapping, t: TableModel, join?: string): Statement {
  const d = compiled.dialect
  const scope = new Scope(d, t, 't')
  const params = new ParamList(d)
  if (join) scope.ref(`${join}.${Object.values(t.joins[join].on)[0] ?? 'x'}`, t.path)
  const key = keyText(t.key, scope, params, `${t.path}/key`)
  const where = scope.where(params)
  const sql = d.select({
    columns: [{ expr: 'COUNT(*)', alias: 'n' }, { expr: `COUNT(DISTINCT ${key})`, alias: 'k' }],
    from: { table: d.table(t.table), alias: 't' }, joins: scope.joins(params), where, orderBy: []
  })
  return { name: `${t.path.split('/').pop() ?? ''}.count`, sql, params: params.params }
}

/** Each stored value of a column with its count and the smallest id holding it. */
function groupStatement (compiled: CompiledMapping, t: TableModel, column: string): Statement {
  const d = compiled.dialect
  const scope = new Scope(d, t, 't')
  const params = new ParamList(d)
  const col = scope.ref(column, t.path)
  const key = scope.ref(t.key.column, t.path)
  const where = scope.where(params)
  const sql = d.select({
    columns: [{ expr: col, alias: 'code' }, { expr: 'COUNT(*)', alias: 'n' }, { expr: `MIN(${key})`, alias: 'example' }],
    from: { table: d.table(t.table), alias: 't' }, joins: scope.joins(params), where, orderBy: []
  }) + ` GROUP BY ${col}`
  return { name: `${t.path.split('/').pop() ?? ''}.codes`, sql, params: params.params }
}
