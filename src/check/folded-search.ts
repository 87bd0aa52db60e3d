// The e-mail search compares LOWER(TRIM(column)) with the term (compile/client.ts): a plain
// index on the column cannot serve it, so the database reads the whole table on every search.
// Where the database indexes an expression, check advises an index on that very expression
// (SQL Server: a computed column and its index); where it cannot (MariaDB), it says that the
// search reads the whole table, and how many rows that is.
import type { CompiledMapping } from '../mapping/compile/index.js'
import { leadsAFoldedIndex, type LiveCatalog } from '../db/columns.js'
import type { Database } from '../db/database.js'
import { count } from './table-scan.js'
import { seeks } from './indexes.js'
import type { Findings } from './findings.js'

export async function checkFoldedSearch (compiled: Pick<CompiledMapping, 'model' | 'references' | 'check'>, catalog: LiveCatalog, db: Pick<Database, 'dialect' | 'query'>, out: Findings): Promise<void> {
  for (const seek of seeks(compiled).filter((s) => s.lookup === 'folded')) {
    const table = catalog.table(seek.table)
    const live = table?.columns.get(seek.columns[0].toLowerCase())
    if (!table || !live || leadsAFoldedIndex(table, live.name) !== false) continue
    const compared = `it compares ${db.dialect.lower(db.dialect.trim(live.name))}`
    if (db.dialect.foldedIndex) {
      const name = `IX_${table.name}_${live.name}_folded`.replace(/[^A-Za-z0-9_]/g, '_')
      out.warning(seek.path, `column \`${live.name}\` of table \`${seek.table}\` has no index the e-mail search can use (${compared}, which a plain index does not hold): ` +
        `each search of clients by e-mail would read the whole table; create one: ${db.dialect.foldedIndex(name, seek.table, live.name)}`)
      continue
    }
    const rows = await rowsOf(compiled, db)
    out.warning(seek.path, `each search of clients by e-mail reads the whole table \`${seek.table}\`${rows === undefined ? '' : ` (${count(rows)} client rows)`}: ` +
      `${compared}, and this database indexes no expression (MariaDB; MySQL from 8.0.13 does, by hand)`)
  }
}

/** The client rows a search reads, counted as the data pass counts them; undefined when the count cannot run (said elsewhere). */
async function rowsOf (compiled: Pick<CompiledMapping, 'model' | 'check'>, db: Pick<Database, 'query'>): Promise<number | undefined> {
  try {
    const row = (await db.query(compiled.check.keyCount(compiled.model.client).statement))[0]
    return row === undefined ? undefined : Number(row.n)
  } catch {
    return undefined
  }
}
