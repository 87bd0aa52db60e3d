// SQLite keeps every text as UTF-8 whatever its declared type, but Ponte reads a declared
// VARCHAR/CHAR as SQL Server would (sql/sqlite/introspect.ts: a SQLite copy of a legacy
// database stands in for it), a code page: a name loses accents outside Latin-1 and one with
// emoji or `Ł` is refused. Where the clinic's own program reads that file as UTF-8, that is
// a loss nobody asked for, so check says so at the field with the remedy (stranger report D6).
import type { MappingModel } from '../mapping/model.js'
import type { LiveCatalog } from '../db/columns.js'
import type { Findings } from './findings.js'
import type { Dialect } from '../sql/dialect.js'

const FIELDS = ['name', 'email'] as const

export function checkSqliteCodePage (model: MappingModel, catalog: LiveCatalog, dialect: Dialect, out: Findings): void {
  if (dialect.utf8InAnyText !== true) return
  const c = model.client
  for (const field of FIELDS) {
    const v = c.fields[field]
    if (!v || typeof v.column !== 'string' || v.type !== undefined) continue
    const [alias, column] = v.column.includes('.') ? v.column.split('.', 2) as [string, string] : [undefined, v.column]
    const table = alias === undefined ? c.table : c.joins[alias]?.table
    const live = table === undefined ? undefined : catalog.table(table)?.columns.get(column.toLowerCase())
    if (live?.kind !== 'text' || live.unicode !== false) continue
    const loss = field === 'email'
      ? 'an e-mail written here with a letter outside Latin-1 is refused'
      : 'a name written here loses accents outside Latin-1 (`Nguyễn` → `Nguyen`), and one with emoji, other scripts or `Ł` is refused'
    out.warning(v.path, `column \`${live.name}\` is declared ${live.declared}, which Ponte reads as SQL Server does, a code page: ${loss}, though SQLite stores UTF-8 in any text column. ` +
      'If the clinic\'s program reads this column as UTF-8, give `type: ntext` on the field (the declared length still holds); leave it where the program expects a code page')
  }
}
