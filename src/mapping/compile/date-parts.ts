// A birthday kept as day, month and year in three columns (OSCAR), written part by part in
// the padding the clinic's rows use, so the template reads back the date sent.
import type { Value } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { isTextType, templateParts } from './value.js'
import type { ColumnDeclaration, FieldWriter } from './write-columns.js'

/**
 * The writer of a `{day}/{month}/{year}` (`format: dmy`) or `{year}-{month}-{day}` (`format:
 * text`) template; undefined for any other template (a joined column, two parts, a lead text).
 */
export function datePartsWriter (v: Value): FieldWriter | undefined {
  if (v.template === undefined || (v.format !== 'dmy' && v.format !== 'text')) return undefined
  const parts = templateParts(v.template, v.path)
  const columns = parts.filter((p) => p.column !== undefined).map((p) => p.column as string)
  if (columns.length !== 3 || columns.some((c) => c.includes('.')) || parts[0].text !== undefined) return undefined
  const [day, month, year] = v.format === 'dmy' ? columns : [...columns].reverse()
  const type: SqlTypeName = v.type ?? 'text'
  const declared: ColumnDeclaration = { type: v.type, length: v.length }
  const pad = v.pad ?? 2
  // A numeric column keeps 7 whatever the padding.
  const stored = (digits: string, width: number): string | number => isTextType(type) ? String(Number(digits)).padStart(width, '0') : Number(digits)
  return {
    columns: columns.map((column) => ({ column, type, declared, path: `${v.path}/template` })),
    encode (value) {
      if (value === undefined || value === null) return { [day]: null, [month]: null, [year]: null }
      const [y, m, d] = String(value).split('-')
      return { [year]: stored(y, 4), [month]: stored(m, pad), [day]: stored(d, pad) }
    }
  }
}
