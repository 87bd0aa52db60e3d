// The one place that says whether a value fits the column it is written to. SQL Server
// refuses text longer than the column and turns characters outside a VARCHAR's code page
// into `?`; SQLite does neither. Checking here makes every dialect behave alike: text for
// a column without Unicode loses only its accents (normalise/fold.ts) or is a 400, and too
// long is a 400. What the columns declare comes from the served mapping's catalogue.
import { isTextType, type FieldWriter, type WrittenColumn } from '../mapping/compile/index.js'
import type { SqlTypeName } from '../mapping/schema.js'
import type { ClientModel } from '../mapping/model.js'
import { textColumnsOf, type LiveCatalog, type TextColumn, type TextColumns } from '../db/columns.js'
import { foldToCodePage } from '../normalise/fold.js'

const UNICODE = new Set<SqlTypeName>(['ntext', 'nchar'])

/**
 * How a written column stores text: what the mapping declares, else what the database
 * declares, else the type the column binds with (a length then is unknown and not checked).
 * undefined when the column does not hold text.
 */
export function storedAs (column: WrittenColumn, live: TextColumns): TextColumn | undefined {
  const { declared } = column
  if (declared.type !== undefined && !isTextType(declared.type)) return undefined
  const found = live.get(column.column.toLowerCase())
  if (declared.type === undefined && found === undefined && !isTextType(column.type)) return undefined
  return {
    unicode: declared.type !== undefined ? UNICODE.has(declared.type) : found?.unicode ?? UNICODE.has(column.type),
    length: declared.length ?? found?.length
  }
}

export type Fit = { value: unknown } | { problem: string }

/**
 * The value a field is written with, its accents dropped where one of its columns holds no
 * Unicode and the code page lacks them; or why it cannot be written. Lengths are counted after
 * folding, as the database counts them: UTF-16 code units for NVARCHAR, and for a code page
 * column bytes, which after folding are its characters.
 */
export function fitField (writer: FieldWriter, value: unknown, live: TextColumns): Fit {
  if (typeof value !== 'string') return { value }
  const columns = writer.columns.map((c) => ({ column: c.column, text: storedAs(c, live) }))
  const folded = columns.some((c) => c.text?.unicode === false) ? foldToCodePage(value) : value
  if (folded === undefined) return { problem: 'holds characters this installation\'s database cannot store: it keeps Latin-1 letters, and other letters only without their accents' }
  if (folded.trim() === '' && value.trim() !== '') return { problem: 'holds no character this installation\'s database can store' }
  const stored = writer.encode(folded)
  for (const { column, text } of columns) {
    const s = stored[column]
    if (text?.length === undefined || typeof s !== 'string' || s.length <= text.length) continue
    return {
      problem: columns.length === 1
        ? `must be at most ${text.length} characters long (as this installation stores it)`
        : `is too long for this installation (one of the parts it is stored in holds at most ${text.length} characters)`
    }
  }
  return { value: folded }
}

/**
 * The text columns a client's fields are written to, from the catalogue: its own table's by
 * name, and those of the rows written with it (a joined e-mail row, a collected phone row) as
 * the writers name them, `alias.column` and `phones/<i>.column`, so a child row's value is held
 * to its own column.
 */
export function clientTextColumns (client: ClientModel, catalog: LiveCatalog): TextColumns {
  const out = new Map(textColumnsOf(catalog.table(client.table)))
  const rows: [string, string][] = [
    ...Object.entries(client.joins).map(([alias, j]): [string, string] => [alias, j.table]),
    ...client.phones.flatMap((p, i): [string, string][] => p.collect ? [[`phones/${i}`, p.collect.table]] : [])
  ]
  for (const [name, table] of rows) {
    for (const [column, text] of textColumnsOf(catalog.table(table))) out.set(`${name}.${column}`.toLowerCase(), text)
  }
  return out
}
