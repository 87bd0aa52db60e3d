// `ponte check`: runs every compiled statement against the real database once and reports
// what the mapping cannot read — so clinic IT hears about it before the caller does.
import type { Installation } from './installation.js'
import { addDays, todayIn } from './normalise/datetime.js'
import { rangeArgs } from './mapping/compile/appointment.js'
import { compileAppointmentWrites } from './mapping/compile/appointment-write.js'
import { compileClientWrites } from './mapping/compile/client-write.js'
import { CompileError } from './mapping/compile/scope.js'
import { bindId } from './services/ids.js'
import { inputType } from './sql/statement.js'
import { Catalog } from './services/catalog.js'

export interface CheckReport { ok: boolean, lines: string[] }

const SAMPLE_IDS = 5

export async function checkInstallation (inst: Installation, today = todayIn(inst.model.timezone)): Promise<CheckReport> {
  const lines: string[] = [`mapping ${inst.model.file}: valid (installation ${inst.model.installation})`]
  let ok = true
  const problem = (text: string) => { ok = false; lines.push(`✗ ${text}`) }
  const fine = (text: string) => lines.push(`✓ ${text}`)
  const run = async <T>(what: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn()
    } catch (err) {
      problem(`${what}: the database refused the statement: ${(err as Error).message}`)
      return undefined
    }
  }
  const { compiled, db } = inst

  for (const lookup of compiled.lookups) {
    const rows = await run(lookup.name, async () => await db.query(lookup.all))
    if (!rows) continue
    const unreadable = rows.filter((r) => lookup.read(r) === undefined).length
    if (unreadable > 0) problem(`${lookup.name}: ${unreadable} of ${rows.length} rows have no readable id`)
    else fine(`${lookup.name}: ${rows.length} rows`)
  }

  const snap = await run('lookup catalogue', async () => await new Catalog(compiled, db).snapshot())
  for (const edge of compiled.edges) {
    if (!edge.pairs || !edge.readPair) continue
    const rows = await run(edge.pairs.name, async () => await db.query(edge.pairs as NonNullable<typeof edge.pairs>))
    if (!rows) continue
    const pairs = rows.map((r) => edge.readPair?.(r)).filter((p): p is [string, string] => p !== undefined)
    const [a, b] = edge.between
    const dangling = snap
      ? pairs.filter(([x, y]) => (a !== 'plan' && !snap.record(a as never, x)) || (b !== 'plan' && !snap.record(b as never, y))).length
      : 0
    fine(`${a} ↔ ${b}: ${pairs.length} pairs${dangling > 0 ? ` (${dangling} name a ${a} or ${b} that does not exist; ignored)` : ''}`)
  }

  const clientRows = await run('client.page', async () => await db.query(compiled.clients.page, { limit: 1000, offset: 0 }))
  const clients = (clientRows ?? []).flatMap((r) => compiled.clients.read(r) ?? [])
  if (clientRows) {
    const noName = clients.filter((c) => c.name === '').length
    const noPhone = clients.filter((c) => !c.phone).length
    fine(`client: first ${clients.length} rows read; ${noPhone} without a readable phone${noName > 0 ? `; ${noName} without a name` : ''}`)
  }
  for (const edge of compiled.edges) {
    if (!edge.forClient || clients.length === 0) continue
    const ids = clients.slice(0, SAMPLE_IDS).map((c) => c.id)
    let ran = 0
    const statement = edge.forClient
    const type = inputType(statement, 'client') ?? 'int'
    for (const id of ids) if (await run(statement.name, async () => await db.query(statement, { client: bindId(id, type) }))) ran++
    if (ran === ids.length) fine(`${edge.between.join(' ↔ ')}: read for ${ran} clients`)
  }

  const from = addDays(today, -30)
  const to = addDays(today, 30)
  const shape = compiled.appointments({ filters: [], minimal: false })
  const rows = await run(shape.statement.name, async () => await db.query(shape.statement, rangeArgs(from, to)))
  if (rows) {
    const read = rows.map((r) => shape.read(r))
    const dropped = rows.filter((_, i) => read[i] === undefined).map((r) => String(r.c0))
    const unknown = read.filter((a) => a?.state === 'UNKNOWN').map((a) => a?.id)
    const danglingRefs = snap
      ? read.filter((a) => a && (['professional', 'location', 'service'] as const).some((k) => a.refs[k] !== undefined && !snap.record(k, a.refs[k] as string))).length
      : 0
    if (dropped.length > 0) problem(`appointment: ${dropped.length} of ${rows.length} rows between ${from} and ${to} have an unreadable date or hour (ids ${dropped.slice(0, 10).join(', ')})`)
    if (unknown.length > 0) problem(`appointment: ${unknown.length} rows have a state the mapping does not map (ids ${unknown.slice(0, 10).join(', ')})`)
    if (dropped.length === 0 && unknown.length === 0) fine(`appointment: ${rows.length} rows between ${from} and ${to}, all readable`)
    if (danglingRefs > 0) lines.push(`! appointment: ${danglingRefs} rows name a professional, location or service that is not listed (deleted or filtered out)`)
  }
  // Working hours and every block source: rows the readers cannot use offer (or block) nothing.
  const av = compiled.availability
  const sources = av ? [av.weekly, av.dated, ...av.blocks].filter((p): p is NonNullable<typeof p> => p !== undefined) : []
  for (const source of sources) {
    const name = source.statement.name
    const got = await run(name, async () => await db.query(source.statement, rangeArgs(from, to)))
    if (!got) continue
    const unreadable = got.filter((r) => source.read(r) === undefined).length
    if (unreadable > 0) problem(`${name}: ${unreadable} of ${got.length} rows between ${from} and ${to} cannot be read (dates, hours or ids); they ${name.startsWith('availability.blocks') ? 'block' : 'offer'} nothing`)
    else fine(`${name}: ${got.length} rows between ${from} and ${to}, all readable`)
  }
  for (const [what, compile] of [
    ['clients', () => compileClientWrites(inst.model, db.dialect).insert()],
    ['appointments', () => compileAppointmentWrites(inst.model, db.dialect).insert()]
  ] as const) {
    try {
      compile()
      fine(`writes of ${what}: mapped`)
    } catch (err) {
      if (!(err instanceof CompileError)) throw err
      lines.push(`! writes of ${what}: not possible (${err.path}: ${err.message}); reads are unaffected`)
    }
  }
  lines.push(ok ? 'check passed' : 'check found problems')
  return { ok, lines }
}
