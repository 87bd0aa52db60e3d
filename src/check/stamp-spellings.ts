// A `now:` stamp written into a text column is compared with how the clinic's own rows spell
// that column (`15/03/2019`, `20/11/2026 10:05:00`): a stamp in another form reads back "as
// stored" yet leaves the legacy program two spellings in one column. Said at the stamp's line.
import type { Database } from '../db/database.js'
import type { LiveCatalog } from '../db/columns.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { TableModel } from '../mapping/model.js'
import type { WriteSpecDoc } from '../mapping/schema.js'
import { stampOf } from '../mapping/compile/index.js'
import { nowIn } from '../normalise/datetime.js'
import { textShape } from '../normalise/text.js'
import type { Findings } from './findings.js'
import { scanTable } from './table-scan.js'

type Entries = Record<string, NonNullable<WriteSpecDoc['set']>[string]> | undefined

/** Rows sampled per column: the first of the table, as stored-spellings.ts samples birthdays. */
const SAMPLE_ROWS = 2000

export async function checkStampSpellings (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, out: Findings): Promise<void> {
  const { model } = compiled
  const a = model.appointment
  const c = model.client
  const places: Array<[TableModel, string, Entries]> = [
    [c, `${c.path}/write/set`, c.write?.set],
    [c, `${c.path}/write/update`, c.write?.update],
    [a, `${a.path}/write/set`, a.write?.set],
    [a, `${a.path}/write/update`, a.write?.update],
    [a, `${a.path}/write/reschedule`, a.write?.reschedule],
    [a, `${a.path}/openSlots/claim`, a.openSlots?.claim as Entries]
  ]
  const shapesOf = new Map<string, Map<string, number> | undefined>()
  for (const [table, path, entries] of places) {
    for (const [column, w] of Object.entries(entries ?? {})) {
      if (!('now' in w) || out.covers(`${path}/${column}`)) continue
      const live = catalog.table(table.table)?.columns.get(column.toLowerCase())
      if (live?.kind !== 'text') continue
      let stamp: string | number
      try {
        stamp = stampOf(w, `${path}/${column}`).value(nowIn(model.timezone))
      } catch {
        continue // refused at load already
      }
      const key = `${table.path}:${column.toLowerCase()}`
      if (!shapesOf.has(key)) shapesOf.set(key, await sample(compiled, db, table, column))
      const why = unlike(String(stamp), w.now, shapesOf.get(key))
      if (why) out.problem(`${path}/${column}`, why)
    }
  }
}

async function sample (compiled: CompiledMapping, db: Database, table: TableModel, column: string): Promise<Map<string, number> | undefined> {
  const shapes = new Map<string, number>()
  let seen = 0
  // Stopped by rows read, never by time.
  const clock = { deadline: 0, now: () => seen >= SAMPLE_ROWS ? 1 : 0, batchRows: 500, progressEveryMs: Number.POSITIVE_INFINITY }
  try {
    await scanTable(db, compiled.check.columnShapes(table, column), (shape) => {
      seen++
      if (shape !== undefined) shapes.set(shape, (shapes.get(shape) ?? 0) + 1)
    }, clock)
  } catch {
    return undefined // the data pass reports a table it cannot read
  }
  return shapes
}

/** Why a stamp is spelt unlike most stored values of its column (with the key that says it), or undefined. */
function unlike (stamp: string, now: string, shapes: Map<string, number> | undefined): string | undefined {
  if (shapes === undefined) return undefined
  const shape = textShape(stamp)
  const total = [...shapes.values()].reduce((x, y) => x + y, 0)
  const [common, n] = [...shapes].sort((x, y) => y[1] - x[1])[0] ?? ['', 0]
  // Against the majority: once a first stamp in another form went live, it must not silence this.
  if (shape === common || n * 2 <= total) return undefined
  const dmy = /^99([./-])99\1(9999)( 99:99(:99)?)?$/.exec(common)
  const fix = dmy
    ? `give \`format: dmy\`${dmy[1] === '/' ? '' : ` with \`separator: '${dmy[1]}'\``}${dmy[3] !== undefined && now !== 'datetime' ? ' and `now: datetime`' : ''}`
    : /^9999-99-99( 99:99:99)?$/.test(common) ? 'give `format: text`' : common === '99999999' && now === 'date' ? 'give `format: ymd`' : 'give the `format` the rows use'
  return `\`now: ${now}\` writes \`${shape}\` but ${n} of ${total} stored values of the column are spelt \`${common}\`: the clinic's program would meet two spellings in one column; ${fix}`
}
