// Builds an object reader from a table of field decoders: absent values are left out,
// so responses carry only what the legacy row really holds.
import type { Decoder } from './decode.js'

export type Row = Record<string, unknown>

export function objectReader<T> (decoders: Record<string, Decoder<unknown>>): (row: Row) => Partial<T> {
  const fill = objectFiller(Object.entries(decoders))
  return (row) => {
    const out: Record<string, unknown> = {}
    fill(out, row)
    return out as Partial<T>
  }
}

/**
 * Sets on `out`, in the order given, each field whose decoder reads a value from `row`.
 * Compiled once per mapping into straight-line code, one call site per field (so each stays
 * monomorphic and can be inlined): a row costs the decoders' calls and nothing else. The
 * generated text holds no mapping text: field names are written with JSON.stringify and the
 * decoders are passed in as values, never as source.
 */
export function objectFiller (fields: [string, Decoder<unknown>][]): (out: Row, row: Row) => void {
  const lines = fields.map(([field], i) => `v = d${i}(row); if (v !== undefined) out[${JSON.stringify(field)}] = v`)
  const names = fields.map((_, i) => `d${i}`)
  // eslint-disable-next-line no-new-func, @typescript-eslint/no-implied-eval
  const make = new Function(...names, `return function fill (out, row) {\n  let v\n  ${lines.join('\n  ')}\n}`) as (...d: Decoder<unknown>[]) => (out: Row, row: Row) => void
  return make(...fields.map(([, decode]) => decode))
}

/**
 * Reads the selected column `alias` of a row. A function of its own for each column read
 * (not one closure shared by all), so its property load sees one row shape and one name and
 * stays a fast, monomorphic load. `alias` is written with JSON.stringify: no text reaches
 * code unescaped (aliases are the compiler's own `c<n>` anyway).
 */
export function columnGetter (alias: string): (row: Row) => unknown {
  // eslint-disable-next-line no-new-func, @typescript-eslint/no-implied-eval
  return new Function('row', `return row[${JSON.stringify(alias)}]`) as (row: Row) => unknown
}
