// The first rows of every table, read once, so `ponte init` can judge columns by their values:
// codes and shapes only stay in memory, nothing read is written into the draft but state codes.
import type { LiveCatalog, LiveTable } from '../../db/columns.js'
import type { Database, Row } from '../../db/database.js'
import { ParamList } from '../../sql/statement.js'
import { qualified, soleKey } from './tables.js'

/** Up to this many rows per table: enough to tell a name from a code, cheap on a large table. */
export const SAMPLE_ROWS = 500

/** Sampled values of a table's column (blank ones included); `undefined` when nothing was read. */
export interface Samples {
  values: (t: LiveTable, column: string) => unknown[] | undefined
  /** How many rows were read from the table; `undefined` when nothing was read. */
  rows: (t: LiveTable) => number | undefined
  /** The rows read, each by lower-cased column name (NULLs kept), for what needs a row's columns together; `undefined` when nothing was read. */
  records: (t: LiveTable) => Row[] | undefined
}

/** No database to read: every judgement falls back to names and types. */
export const NO_SAMPLES: Samples = { values: () => undefined, rows: () => undefined, records: () => undefined }

/** Reads each table's first rows by its key (else its first column); a table that cannot be read (a view failing) is left unsampled. */
export async function readSamples (db: Database, catalog: LiveCatalog): Promise<Samples> {
  const read = new Map<LiveTable, Row[]>()
  const d = db.dialect
  for (const t of catalog.tables) {
    const cols = [...t.columns.values()]
    if (cols.length === 0) continue
    const params = new ParamList(d)
    const page = { limit: params.constant(SAMPLE_ROWS, 'int'), offset: params.constant(0, 'int') }
    const sql = d.select({
      // Aliased by position: databases fold unquoted names, positions survive.
      columns: cols.map((c, i) => ({ expr: d.column('t', c.name), alias: `c${i}` })),
      from: { table: d.table(qualified(t)), alias: 't' },
      joins: [],
      where: [],
      orderBy: [d.column('t', (soleKey(t) ?? cols[0]).name)],
      page
    })
    const rows = await db.query({ name: 'init.sample', sql, params: params.params }).catch(() => undefined)
    if (rows) read.set(t, rows.map((r) => Object.fromEntries(cols.map((c, i) => [c.name.toLowerCase(), r[`c${i}`]]))))
  }
  return {
    values: (t, column) => read.get(t)?.map((r) => r[column.toLowerCase()]).filter((v) => v !== null && v !== undefined),
    rows: (t) => read.get(t)?.length,
    records: (t) => read.get(t)
  }
}
