// Builds an object reader from a table of field decoders: absent values are left out,
// so responses carry only what the legacy row really holds.
import type { Decoder } from './decode.js'

export type Row = Record<string, unknown>

export function objectReader<T> (decoders: Record<string, Decoder<unknown>>): (row: Row) => Partial<T> {
  const entries = Object.entries(decoders)
  return (row) => {
    const out: Record<string, unknown> = {}
    for (const [field, decode] of entries) {
      const v = decode(row)
      if (v !== undefined) out[field] = v
    }
    return out as Partial<T>
  }
}
