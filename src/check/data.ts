// The data half of `ponte check`: what the mapping makes of the rows actually stored —
// keys that repeat, joins that multiply rows, state codes nobody mapped, dates and ids the
// readers cannot use. Only counts, codes and ids are printed: never a patient's value.
import type { Database, Row } from '../db/database.js'
import { isUnsupported, type CompiledMapping, type ReadPlan } from '../mapping/compile/index.js'
import type { LookupName, TableModel, Value } from '../mapping/model.js'
import type { LookupRecord } from '../mapping/compile/index.js'
import { planExists } from '../services/plans.js'
import type { Statement } from '../sql/statement.js'
import type { LiveCatalog } from '../db/columns.js'
import { Catalog } from '../services/catalog.js'
import type { Findings } from './findings.js'
import { missingName, placeOf } from './probes.js'
import { count, type ScanClock, type ScanResult } from './table-scan.js'
import { checkSlotRows } from './slot-rows.js'
import { appointmentScan, availabilityScan, clientScan, type ScanJob } from './scan-findings.js'

export interface DataOptions {
  /** Time for every scan together (ms); a scan stops where it runs out, and says how far it got. */
  budgetMs: number
  progress?: (what: string) => void
  /** How far a long scan is, and where one was cut short: worth saying even when nobody watches a terminal. */
  scanProgress?: (line: string) => void
  /** The live catalog (the primary keys of schedule tables name their rows). */
  catalog: LiveCatalog
  /** Rows per batch (default 1000). */
  batchRows?: number
  /** How often a long scan says how far it is (ms; default 2000). */
  progressEveryMs?: number
  /** The clock the time is measured with (tests: one that moves on each reading). */
  now?: () => number
  /** The clinic's today, which tells a state code's past rows from those ahead. */
  today?: string
}

/**
 * Numbers kept as text that do not read under the field's `decimal` mark (left out of their
 * records): counted with the first row's id, a problem when most rows are (the wrong mark);
 * and values spelt the other way (`1.150,50` under the default dot) warned of.
 */
function checkNumberSpellings (fields: Record<string, Value>, records: LookupRecord[], out: Findings): void {
  for (const [field, value] of Object.entries(fields)) {
    const bad = records.filter((r) => r.unreadable?.includes(field))
    const other = records.filter((r) => r.otherMark?.includes(field)).length
    const mark = value.decimal ?? '.'
    const column = value.column === undefined ? field : `\`${value.column}\``
    const hint = mark === '.' ? 'give `decimal: \',\'` (Brazilian `1.150,50`)' : 'give `decimal: \'.\'` (or leave `decimal` out)'
    if (bad.length > 0) {
      const say = `${bad.length} of ${records.length} rows hold a ${column} that does not read as a number with the decimal mark \`${mark}\` (e.g. id ${bad[0].id}): their ${field} is left out`
      if (bad.length * 2 > records.length) out.problem(value.path, `${say}; most rows are spelt another way: ${other > 0 ? hint : 'see docs/mapping.md#numbers-kept-as-text'}`)
      else out.warning(value.path, `${say}${other > 0 ? `; ${hint}` : ''}`)
    } else if (other > 0) {
      out.warning(value.path, `${other} of ${records.length} rows spell ${column} the other way (${mark === '.' ? 'thousands grouped by dots, a decimal comma' : 'a decimal dot'}), read under \`${mark}\`: ${hint}`)
    }
  }
}

export async function checkData (compiled: CompiledMapping, db: Database, out: Findings, opts: DataOptions): Promise<void> {
  const { model, check: plans } = compiled
  // Scans are skipped for a mistake in the mapping itself, not for what the data passes find.
  const mistakes = out.list.length
  const now = opts.now ?? Date.now
  const deadline = now() + opts.budgetMs
  const seconds = `--scan-seconds ${opts.budgetMs / 1000}`
  const clock: ScanClock = { deadline, now, batchRows: opts.batchRows ?? 1000, progressEveryMs: opts.progressEveryMs ?? 2000, progress: opts.scanProgress }
  const inTime = (what: string, place?: string): boolean => {
    if (now() <= deadline) { opts.progress?.(what); return true }
    if (place === undefined) out.warning('', `${what}: not scanned (the time ran out; raise --scan-seconds)`)
    else out.warning(place, 'not scanned (the time ran out; raise --scan-seconds)')
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
  const one = async <T>(plan: ReadPlan<T>): Promise<T | undefined> => {
    const row = (await run(plan.statement))?.[0]
    return row === undefined ? undefined : plan.read(row)
  }

  // Keys that repeat, and joins that give one row several partners (lists would repeat it).
  // A lookup kept as a column's values (`valuesOf`) repeats its key by design: each value is one record.
  const tables: TableModel[] = [model.appointment, model.client, ...Object.values(model.lookups).filter((l): l is NonNullable<typeof l> => l !== undefined && l.valuesOf === undefined)]
  for (const t of tables) {
    if (out.covers(t.path) || !inTime(`${t.path.split('/').pop()}: keys and joins`)) continue
    const base = await one(plans.keyCount(t))
    if (base && base.rows > base.keys) {
      out.problem(`${t.path}/key`, `the key is not unique: ${base.rows - base.keys} of ${base.rows} rows repeat another row's key`)
    }
    for (const alias of Object.keys(t.joins)) {
      const got = await one(plans.keyCount(t, alias))
      if (!got) continue
      const { rows: n, keys: k } = got
      if (n > k) out.problem(`${t.path}/joins/${alias}`, `join \`${alias}\` multiplies rows: ${k} ${t.path.split('/').pop()} rows become ${n} (each would be listed several times); its \`on\` columns must name one row of \`${t.joins[alias].table}\``)
    }
  }

  const a = model.appointment
  // Open slots: a `free` condition no row meets offers nothing, and would book nothing.
  if (plans.openSlots && a.openSlots && !out.covers(a.path) && inTime('appointment: open slots')) {
    const free = await one(plans.openSlots())
    if (free === 0) out.warning(`${a.openSlots.path}/free`, `no row of ${a.table} is free by this condition: /availability offers nothing and every booking is refused`)
    else if (free !== undefined) out.ok(`${a.openSlots.path}/free`, `${free} rows of ${a.table} are open slots`)
  }
  // State codes over the whole table, not a window: each unmapped code with its count and an example id.
  if (plans.stateCodes && !out.covers(a.path) && inTime('appointment: state codes')) {
    const codes = plans.stateCodes()
    for (const r of await run(codes.statement) ?? []) {
      const unmapped = codes.read(r)
      if (unmapped) out.problem(`${a.state.path}/map`, `stored ${a.state.column ?? ''} ${unmapped.code} is not mapped: ${unmapped.rows} rows, e.g. id ${unmapped.example}`)
    }
  }

  // Lookups: every row needs a readable id.
  for (const lookup of compiled.lookups) {
    const place = placeOf(lookup.all.name, compiled)
    if (out.covers(place) || !inTime(lookup.name)) continue
    const rows = await run(lookup.all)
    if (!rows) continue
    const read = rows.map((r) => lookup.read(r))
    const unreadable = read.filter((r) => r === undefined).length
    // A lookup kept as the values of a column is counted at that column: its rows are values.
    const valuesOf = model.lookups[lookup.name]?.valuesOf
    if (unreadable > 0) out.problem(place, `${unreadable} of ${rows.length} rows have no readable id`)
    else if (valuesOf) out.ok(valuesOf.path, `${rows.length} distinct values`)
    else out.ok(place, `${rows.length} rows`)
    flagReadOneWay(model.lookups[lookup.name]?.enabled?.path, lookup.name, read.filter((r): r is NonNullable<typeof r> => r !== undefined), out)
    // A blank address is answered with the location's name (else its id): said, so it is no surprise.
    const stoodIn = read.filter((r) => r?.stoodIn !== undefined).length
    if (stoodIn > 0) out.warning(`/resources/${lookup.name}/fields/address`, `${stoodIn} of ${rows.length} rows read a blank address: answered with the location's name (or its id where it has none); to say another, see docs/mapping.md#a-location-without-an-address`)
    checkNumberSpellings(model.lookups[lookup.name]?.fields ?? {}, read.filter((r): r is NonNullable<typeof r> => r !== undefined), out)
  }
  // A lookup named through the row a client's name is read from reads the clients' names.
  for (const named of plans.clientNamed) {
    if (out.covers(named.path) || !inTime(`${named.lookup}: names`)) continue
    const got = await one(named.plan())
    if (got === undefined || got.rows === 0 || got.clients * 2 < got.rows) continue
    out.problem(named.path, `${got.clients} of ${got.rows} ${named.lookup} rows are named through \`${named.alias}\` by a row of \`${named.table}\` that a client's name is read from too: ` +
      `these are clients' names, not the ${named.lookup}'s; join \`${named.table}\` on the column naming the ${named.lookup}'s own row (docs/cli.md#init)`)
  }

  let snap: Awaited<ReturnType<Catalog['snapshot']>> | undefined
  try { snap = await new Catalog(compiled, db).snapshot(undefined) } catch { snap = undefined }
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

  // Template codes' services (`pattern.services`) name services of the catalogue: one it does not hold is a mistyped id.
  for (const source of ['weekly', 'dated'] as const) {
    const listed = Object.keys(model.availability?.[source]?.pattern?.services ?? {})
    const place = `/availability/${source}/pattern/services`
    if (!snap || !model.lookups.service || listed.length === 0 || out.covers(place)) continue
    const unknown = listed.filter((id) => !snap.record('service', id))
    if (unknown.length > 0) out.warning(place, `${unknown.length === 1 ? 'service' : 'services'} ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the services table: ${unknown.length === 1 ? 'its' : 'their'} codes restrict nothing`)
    else out.ok(place, `${listed.length} service${listed.length === 1 ? '' : 's'}, each in the services table`)
  }

  // A ref's default (`write.refs.<ref>.otherwise`) names a row of its lookup, or every booking without that ref is refused.
  const writes = compiled.writes.appointment
  for (const [name, id] of Object.entries(isUnsupported(writes) ? {} : writes.defaults)) {
    const place = `${model.appointment.path}/write/refs/${name}/otherwise`
    const exists = !snap ? undefined : name === 'plan' ? planExists(model, snap, id) : model.lookups[name as LookupName] ? snap.record(name as LookupName, id) !== undefined : undefined
    if (exists === undefined || out.covers(place)) continue
    if (exists) out.ok(place, `${name} ${id} exists`)
    else out.problem(place, `no ${name} has id ${id}: every booking sent without a ${name} would be refused`)
  }

  // Whole tables, in key order, batch by batch, until the time given runs out.
  const jobs: ScanJob[] = [
    appointmentScan(model, plans, snap ? (k, id) => snap.record(k, id) !== undefined : undefined, opts.today),
    clientScan(model, plans),
    ...plans.schedules.map((source) => availabilityScan(source, opts.catalog))
  ]
  for (const job of jobs) {
    if (out.covers(job.place, mistakes) || !inTime(job.what, job.place)) continue
    let result: ScanResult
    try {
      result = await job.scan(db, clock)
    } catch (err) {
      if (!out.covers(job.place) && !out.missing.has(missingName(err) ?? '')) out.problem(job.place, `the database refused the read (${(err as Error).name})`)
      continue
    }
    job.report(result, out)
    if (!result.complete) {
      const line = `${job.what}: scanned ${count(result.scanned)} of ${count(result.total)} rows before the time ran out (${seconds}); the rest was not checked`
      opts.scanProgress?.(line)
      out.warning(job.place, `scanned ${count(result.scanned)} of ${count(result.total)} rows before the time ran out (${seconds}); the rest was not checked`)
    }
  }
  await checkSlotRows(compiled, db, opts.catalog, out, clock, inTime)
}

/** Stored spellings of yes and of no, pairwise: a column holding one of each holds both answers. */
const OPPOSITES: Array<[string[], string[]]> = [[['1', 'T', 'TRUE'], ['0', 'F', 'FALSE']], [['S', 'SIM'], ['N', 'NAO', 'NÃO']], [['Y', 'YES'], ['N', 'NO']]]

/**
 * An `enabled` flag under which every row reads disabled offers nothing to book (a
 * `trueValues` that never matches what the column holds); one under which rows holding
 * different values all read enabled says nothing. Either is the mapping, not the data.
 */
function flagReadOneWay (place: string | undefined, name: string, records: Array<{ enabled: boolean, flag?: string }>, out: Findings): void {
  if (place === undefined || records.length === 0) return
  const held = [...new Set(records.map((r) => r.flag).filter((f) => f !== undefined))]
  const plural = records.length === 1 ? `the one ${name}` : `all ${records.length} ${name}s`
  const values = held.slice(0, 5).map((v) => `\`${v}\``).join(', ')
  if (records.every((r) => !r.enabled)) {
    out.problem(place, `${plural} read as disabled (the column holds ${values || 'nothing'}): /availability offers nothing and ?enabled=true lists none; give \`trueValues\` the stored value meaning enabled`)
  } else if (records.every((r) => r.enabled) && OPPOSITES.some(([yes, no]) => held.some((h) => yes.includes(h.toUpperCase())) && held.some((h) => no.includes(h.toUpperCase())))) {
    out.problem(place, `${plural} read as enabled although the column holds both a yes and a no (${values}): \`trueValues\` (or \`invert\`) matches both`)
  }
}
