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

/** Sets on `out`, in the order given, each field whose decoder reads a value from `row`. */
export function objectFiller (fields: [string, Decoder<unknown>][]): (out: Row, row: Row) => void {
  const names = fields.map(([field]) => field)
  const decoders = fields.map(([, decode]) => decode)
  return (out, row) => {
    for (let i = 0; i < decoders.length; i++) {
      const v = decoders[i](row)
      if (v !== undefined) out[names[i]] = v
    }
  }
}

/** Reads the selected column `alias` of a row. */
export function columnGetter (alias: string): (row: Row) => unknown {
  return (row) => row[alias]
}
