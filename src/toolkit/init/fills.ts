// What a new row must fill that the mapping does not: each NOT NULL column without a default,
// in the resource's own row and in the rows written with it (GNU Health's `party_party`,
// OpenMRS's `person` and `person_name`). A UUID where the stored values are UUIDs, or where
// each differs and a UUID fits (a unique code: a constant would collide from the second row);
// now for a stamp; else the most frequent stored value, marked as the TODO it is.
import type { LiveCatalog, LiveColumn, LiveTable } from '../../db/columns.js'
import type { Samples } from './sample.js'
import { columns, ident, soleKey } from './tables.js'
import { asText, dateSpelling, defaultValue, share } from './values.js'

const UUID_VALUE = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i
/** A UUID's length as text: a column this long or unbounded holds one. */
const UUID_LENGTH = 36

/** `name: value   # why` per column `t` requires and `mapped` (lower-cased names) leaves empty, at `indent`. */
export function fills (t: LiveTable, catalog: LiveCatalog, samples: Samples, mapped: Set<string>, indent: string): string[] {
  return columns(t).filter((c) => !c.generated && !c.key && !mapped.has(c.name.toLowerCase()))
    .flatMap((c) => {
      if (c.notNull && !c.hasDefault) return fill(t, c, samples)
      const dangling = danglingDefault(t, c, catalog, samples)
      return dangling === undefined ? [] : fill(t, c, samples, dangling)
    }).map((l) => `${indent}${l}`)
}

/**
 * A default its own foreign key refuses (OpenMRS's `creator` DEFAULT 0, no user 0): said, so
 * the column is filled as a required one is. Undefined where the default names a row, or where
 * the target's rows were not read.
 */
function danglingDefault (t: LiveTable, c: LiveColumn, catalog: LiveCatalog, samples: Samples): string | undefined {
  const d = defaultValue(c.defaultSql)
  if (d === undefined) return undefined
  const fk = catalog.references.find((r) => r.columns.length === 1 && r.columns[0].toLowerCase() === c.name.toLowerCase() && catalog.table(r.schema === undefined ? r.table : `${r.schema}.${r.table}`) === t)
  const to = fk === undefined ? undefined : catalog.table(fk.toSchema === undefined ? fk.toTable : `${fk.toSchema}.${fk.toTable}`)
  const key = to === undefined ? undefined : fk?.toColumns.length === 1 ? to.columns.get(fk.toColumns[0].toLowerCase()) : soleKey(to)
  if (to === undefined || key === undefined) return undefined
  const keys = (samples.values(to, key.name) ?? []).map(asText)
  return keys.length > 0 && !keys.includes(d) ? `its default ${d} is no ${to.name}.${key.name}, which its foreign key refuses` : undefined
}

const STAMP_NAME = /(creat|modif|updat|chang|insert|entr|stamp|_at$|_utc$|cadastr|inclus|alter|written|write_date|create_date|dt_inc|dt_alt)/i

function fill (t: LiveTable, c: LiveColumn, samples: Samples, why = 'NOT NULL without a default'): string[] {
  const values = samples.values(t, c.name) ?? []
  // A UUID per row (OpenMRS's UNIQUE uuid): a constant would collide from the second insert.
  if (values.length > 0 ? share(values, (v) => UUID_VALUE.test(v)) === 1 : /^(uuid|guid)$/i.test(c.name)) {
    return [`${ident(c.name)}: { uuid: true }   # guess: ${values.length > 0 ? `every one of ${values.length} sampled values is a UUID` : 'named as one; no rows to check'}, so each new row gets its own`]
  }
  if (c.kind === 'date' || /(_at|_utc|_date|_dt|stamp)$/i.test(c.name) || dateSpelling(values)?.withTime === true) {
    // Only a column named as a stamp is guessed to be one: a business date (`start_date`) given now would be wrong on every row.
    return STAMP_NAME.test(c.name)
      ? [`${ident(c.name)}: { now: datetime }   # guess: a stamp of when the row was written`]
      : [`${ident(c.name)}: { now: datetime }   # TODO: ${why}; now is a placeholder: say what this date is`]
  }
  const counts = new Map<string, number>()
  for (const v of values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1)
  const top = [...counts].sort((a, b) => b[1] - a[1])[0]
  // Every sampled value different (a code or number per row): a constant would repeat it, which its table may refuse.
  const unique = values.length >= 2 && counts.size === values.length
  if (unique && c.kind === 'text' && (c.length === undefined || c.length >= UUID_LENGTH)) {
    return [`${ident(c.name)}: { uuid: true }   # TODO: ${why}, and every one of ${values.length} sampled values differs: a UUID is one no row holds; the clinic's program may number them its own way`]
  }
  if (top === undefined) return []
  const said = unique ? '; every sampled value differs, so a constant may collide: give a generated value' : ': confirm'
  return [`${ident(c.name)}: { value: ${JSON.stringify(typeof values[0] === 'number' ? Number(top[0]) : top[0])} }   # TODO: ${why}; the most frequent stored value (${top[1]} of ${values.length} sampled rows)${said}`]
}
