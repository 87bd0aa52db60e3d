// Rows as objects keyed by column name, built from arrays: the worker's answers arrive as arrays
// (driver.ts), and a key read on this thread asks SQLite for an array too (local-reads.ts), since
// better-sqlite3 building a 27-column object costs more than this literal (by id: 49 against 55
// µs a statement alone). Each list of columns gets one function building its rows as a single
// object literal, so every row has one shape from the start; a name given twice keeps its first
// place and its last value, as better-sqlite3's own objects do.
import type { Row } from '../../db/database.js'

const makers = new Map<string, (values: unknown[]) => Row>()

export function rowMaker (columns: string[]): (values: unknown[]) => Row {
  const key = columns.join('\u0000')
  let make = makers.get(key)
  if (make) return make
  // '__proto__' written as a literal's key would set the prototype, not a property.
  if (columns.includes('__proto__')) {
    make = (values) => {
      const row: Row = {}
      columns.forEach((c, i) => { Object.defineProperty(row, c, { value: values[i], enumerable: true, writable: true, configurable: true }) })
      return row
    }
  } else {
    // Names are quoted by JSON.stringify: a column name is data here, never code.
    // eslint-disable-next-line no-new-func
    make = new Function('v', `return { ${columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ')} }`) as (values: unknown[]) => Row
  }
  // Statements come from the compiled mapping (a few hundred); a reload brings new ones.
  if (makers.size >= 2000) makers.clear()
  makers.set(key, make)
  return make
}
