// Slot-based booking (`write.slot`) against the stored data: capacities the booking cannot
// read (or that close a slot), starts it cannot read or never finds, slots already holding
// more appointments than they take, blocks that accept no service (never offered when a
// service is asked for), appointments whose service their block does not accept. Counts
// and ids only: never a patient's value.
import type { Database, Row } from '../db/database.js'
import type { CompiledMapping, ReadPlan } from '../mapping/compile/index.js'
import { count, scanTable, Tally, type ScanClock } from './table-scan.js'
import type { Findings } from './findings.js'
import type { LiveCatalog } from '../db/columns.js'

export async function checkSlotRows (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, out: Findings, clock: ScanClock, inTime: (what: string, place: string) => boolean): Promise<void> {
  const slotRows = compiled.check.slotRows
  const doc = compiled.model.appointment.write?.slot
  if (!slotRows || !doc || out.covers(slotRows.path) || out.covers(slotRows.joinPath)) return
  // Plans are compiled as they are run: whatever fails, the probes already said why.
  const run = async <T>(planOf: () => ReadPlan<T>): Promise<T[] | undefined> => {
    try {
      const plan = planOf()
      return (await db.query(plan.statement)).map((row: Row) => plan.read(row))
    } catch { return undefined }
  }

  // Capacities and starts, slot by slot: the whole table, in batches.
  if (slotRows.scan && inTime('slot capacities and starts', slotRows.capacityPath ?? slotRows.path)) {
    const empty = new Tally()
    const closed = new Tally()
    const unreadable = new Tally()
    const noStart = new Tally()
    const unreached = new Tally()
    const keyType = catalog.table(slotRows.table)?.columns.get(slotRows.key.toLowerCase())?.kind === 'text' ? 'ntext' : 'int'
    const scan = slotRows.scan
    const result = await Promise.resolve().then(async () => await scanTable(db, scan(keyType), (row) => {
      const label = `slot id ${row.id}`
      if (row.capacity === 'empty') empty.add(label)
      else if (row.capacity === 'unreadable') unreadable.add(label)
      else if (row.capacity === 'closed') closed.add(label)
      if (row.start === 'unreadable') noStart.add(label)
      else if (row.start === 'unreached') unreached.add(label)
    }, clock)).catch(() => undefined)
    if (result) {
      const part = result.complete ? '' : ` (in the first ${count(result.scanned)} of ${count(result.total)} slots)`
      const at = slotRows.capacityPath
      if (at !== undefined) {
        if (unreadable.n > 0) out.problem(at, `${count(unreadable.n)} slot${unreadable.n === 1 ? ' has a capacity' : 's have capacities'} that ${unreadable.n === 1 ? 'is' : 'are'} not a whole number${part}${unreadable.eg}: each is taken as 1 place`)
        if (empty.n > 0) out.warning(at, `${count(empty.n)} slot${empty.n === 1 ? ' has no capacity' : 's have no capacity'} (NULL)${part}${empty.eg}: each is taken as 1 place`)
        if (closed.n > 0) out.warning(at, `${count(closed.n)} slot${closed.n === 1 ? ' has' : 's have'} a capacity of 0 or less${part}${closed.eg}: closed, never offered or booked`)
        if (unreadable.n + empty.n + closed.n === 0) out.ok(at, `${count(result.scanned)} slots, every capacity readable`)
      }
      const start = slotRows.startPath
      if (start !== undefined) {
        if (noStart.n > 0) out.problem(start, `${count(noStart.n)} of ${count(result.total)} slots ha${noStart.n === 1 ? 's a start' : 've starts'} that cannot be read${part}${noStart.eg}: never offered or booked`)
        if (unreached.n > 0) out.problem(start, `${count(unreached.n)} of ${count(result.total)} slots read well but ${unreached.n === 1 ? 'is' : 'are'} never returned by the server's date filter (it compares the stored starts as the database does: check their \`format\`)${part}${unreached.eg}: never offered or booked`)
      }
    }
  }

  // Slots already holding more appointments than they take (states that free a slot left out).
  const over = slotRows.over
  if (over && inTime('slots over capacity', `${slotRows.path}/capacity`)) {
    const rows = await run(over)
    if (rows) {
      const over = new Tally()
      for (const r of rows.sort((x, y) => x.slot.localeCompare(y.slot, 'en', { numeric: true }))) {
        if (r.taken > r.seats) over.add(`slot id ${r.slot}`)
      }
      if (over.n > 0) out.warning(`${slotRows.path}/capacity`, `${count(over.n)} slot${over.n === 1 ? ' holds' : 's hold'} more appointments than ${over.n === 1 ? 'it takes' : 'they take'}${over.eg}: booking refuses them until some are cancelled`)
    }
  }

  const services = doc.services
  if (!services || !slotRows.services || out.covers(`${slotRows.path}/services`)) return
  const spath = `${slotRows.path}/services`

  // Blocks that accept no service: never offered when /availability is asked for one.
  if (slotRows.services.none && inTime('blocks accepting no service', spath)) {
    const r = (await run(slotRows.services.none))?.[0]
    if (r && r.none > 0) {
      const what = services.table !== undefined ? 'block' : 'slot'
      const text = `${count(r.none)} of ${count(r.blocks)} ${what}s accept no service (no row in \`${services.table ?? services.column}\`), e.g. ${what} ${r.example}: never offered when a service is asked for`
      if (r.none === r.blocks) out.problem(spath, `${text}; none accepts any, so check \`on\`, \`column\` and \`where\``)
      else out.warning(spath, text)
    }
  }

  // Appointments whose block does not accept their service (booked before the rule, or by hand).
  if (inTime('appointments with a service their block does not accept', spath)) {
    const r = (await run(slotRows.services.refused))?.[0]
    if (r && r.n > 0) {
      out.warning(spath, `${count(r.n)} appointment${r.n === 1 ? ' has a service its block does not' : 's have a service their block does not'} accept, e.g. id ${r.example}: listed as stored; a new booking like ${r.n === 1 ? 'it' : 'them'} would be refused`)
    }
  }
}
