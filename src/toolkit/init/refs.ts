// Which column of a table names rows of another, found from the data where there is some (every
// sampled value is a key there) and from the names otherwise: `pc_pid` → `patient_data.pid`,
// `clin_code` → `clinician`, GNU Health's `patient` → `gnuhealth_patient`, `person_no` → `person`.
import type { LiveCatalog, LiveColumn, LiveTable } from '../../db/columns.js'
import { SAMPLE_ROWS, type Samples } from './sample.js'
import { asText } from './values.js'
import { columns, soleKey } from './tables.js'

export interface Ref {
  from: LiveTable
  column: LiveColumn
  to: LiveTable
  /** The column of `to` it holds: the primary key, or a unique column named at the end of `column`'s name. */
  key: LiveColumn
  /** How it was found: a foreign key the database declares, every sampled value is a key of `to`, or the names alone (no rows to compare). */
  by: 'declared' | 'values' | 'names'
}

const REF_NAME = /^(id|cod|fk)_|(_|^)(id|no|nr|num|cod|code|ref)$|[a-z]id$|Id$|ID$/
/** Numbers that are amounts, not row ids, even when they happen to equal some keys. */
const QUANTITY = /(min|minutes|interv|len|length|dur|duration|qty|count|price|valor|amount|weekday|day|dia|year|month|age|seq|order|sort|pos|flag|active|status|state|hour|hora|time|grid)/i
/** The word a reference's name holds: `id_medico`, `medico_id`, and a Delphi desk's run-together `CODMEDICO`, all `medico`. */
const stem = (name: string): string => name.toLowerCase().replace(/^(id|cod|fk)(_|(?=[a-z]{4}))/, '').replace(/_?(id|no|nr|num|cod|code|ref)$/, '')
const bare = (t: LiveTable): string => t.name.toLowerCase().replace(/^tb_?/, '')

/** How much the names say `c` points at `k` of `u`: 3 same column name, 2 related, 1 shaped like a reference, 0 nothing. */
function nameScore (c: LiveColumn, u: LiveTable, k: LiveColumn): number {
  const cn = c.name.toLowerCase()
  const kn = k.name.toLowerCase()
  if (cn === kn && kn !== 'id') return 3
  const s = stem(c.name)
  const un = bare(u)
  if (s.length >= 3 && (un === s || un === `${s}s` || un === `${s}es` || un.endsWith(`_${s}`) || un.includes(s))) return 2
  if (kn.length >= 3 && cn.endsWith(kn)) return 2
  // Spelt apart but the same word: `speciality` → `gnuhealth_specialty`.
  if (un.split('_').some((w) => commonPrefix(w, s) >= 6)) return 2
  return REF_NAME.test(c.name) ? 1 : 0
}

/** A column named as an identifier (`pid`, `chart_no`, `uuid`), not as words (`name`, `reason`): only such a column is a key besides the primary one. */
const ID_NAME = /(id|no|nr|num|cod|code|key)$/i

/** The columns of `u` a reference may hold: its primary key, or an identifier with distinct values whose name ends the referring one's. */
function targets (u: LiveTable, c: LiveColumn, samples: Samples): LiveColumn[] {
  const key = soleKey(u)
  const named = columns(u).filter((k) => k !== key && k.name.length >= 3 && ID_NAME.test(k.name) && c.name.length > k.name.length &&
    c.name.toLowerCase().endsWith(k.name.toLowerCase()) && distinct(samples.values(u, k.name)))
  return [...key ? [key] : [], ...named]
}

const distinct = (values: unknown[] | undefined): boolean => values !== undefined && values.length > 0 && new Set(values.map(asText)).size === values.length

/** Whether every sampled value of `c` is among `k`'s; undefined when either has no rows. */
function valuesMatch (t: LiveTable, c: LiveColumn, u: LiveTable, k: LiveColumn, samples: Samples): boolean | undefined {
  const keys = new Set((samples.values(u, k.name) ?? []).map(asText))
  // 0 where no key is 0 stands for none (OSCAR's walk-ins: `demographic_no` 0), as a blank does.
  const vals = (samples.values(t, c.name) ?? []).map(asText).filter((v) => v !== '' && (v !== '0' || keys.has('0')))
  if (vals.length === 0 || keys.size === 0) return undefined
  if (vals.every((v) => keys.has(v))) return true
  // Only the target's first rows were read: values beyond them prove nothing either way.
  return (samples.values(u, k.name)?.length ?? 0) >= SAMPLE_ROWS && vals.some((v) => keys.has(v)) ? undefined : false
}

/**
 * Who wrote or changed the row (OpenMRS's `creator`, Tryton's `create_uid`, OSCAR's
 * `lastupdateuser`): a login, never the row's patient, provider or place, so no reference init follows.
 */
export const AUDIT_NAME = /^(creator|created_?by|changed_?by|updated_?by|modified_?by|voided_?by|retired_?by|deleted_?by|(create|write)_uid|last_?update_?user|usuario|informant|entered_?by)$/i

export function findRefs (catalog: LiveCatalog, samples: Samples): Ref[] {
  const refs = declaredRefs(catalog).filter((r) => !AUDIT_NAME.test(r.column.name))
  const declared = new Set(refs.map((r) => r.column))
  for (const t of catalog.tables) {
    const own = soleKey(t)
    // A key the database does not number is another row's (OpenMRS's `patient.patient_id` is a `person_id`).
    const extends_ = own !== undefined && !own.generated && own.kind === 'number' && !declared.has(own)
    const options = columns(t).filter((c) => (c !== own || extends_) && c.kind !== 'date' && !declared.has(c) && !AUDIT_NAME.test(c.name)).map((c) => {
      const found: (Ref & { score: number })[] = []
      for (const u of catalog.tables) {
        if (u === t) continue
        for (const k of targets(u, c, samples)) {
          if (c === own && (k !== soleKey(u) || !k.generated || (samples.rows(u) ?? 0) < (samples.rows(t) ?? 0) || childRows(u, catalog))) continue
          const names = nameScore(c, u, k)
          const match = valuesMatch(t, c, u, k, samples)
          const byValue = match === true && (names >= 1 || (c.kind === 'number' && k.kind === 'number' && !QUANTITY.test(c.name) && unnamedRef(t, c, samples)))
          // Among tables whose keys all hold the values, the tightest fit: person ids 1–6 are the 6 people, not the first 6 of 10 appointments.
          if (byValue) found.push({ from: t, column: c, to: u, key: k, by: 'values', score: names * 2 + 1 + tightness(t, c, u, k, samples) / 2 + (named(u) ? 0.25 : 0) })
          else if (match === undefined && names >= 2) found.push({ from: t, column: c, to: u, key: k, by: 'names', score: names * 2 })
        }
      }
      return found.sort((a, b) => b.score - a.score)
    }).filter((f) => f.length > 0)
    // Columns with one clear target first; a tie goes to a table no other column of `t` names.
    const top = (f: (Ref & { score: number })[]): number => f.filter((r) => r.score === f[0].score).length
    const taken = new Set<LiveTable>()
    for (const found of options.sort((a, b) => top(a) - top(b) || b[0].score - a[0].score)) {
      const best = found.filter((r) => r.score === found[0].score)
      const pick = best.find((r) => !taken.has(r.to)) ?? best[0]
      taken.add(pick.to)
      refs.push({ from: pick.from, column: pick.column, to: pick.to, key: pick.key, by: pick.by })
    }
  }
  return refs
}

/** Rows of another table's (`person_name` holds `person_id`): a row extending one extends the parent, not these. */
const childRows = (u: LiveTable, catalog: LiveCatalog): boolean => columns(u).some((c) => !c.key &&
  catalog.tables.some((v) => v !== u && soleKey(v)?.name.toLowerCase() === c.name.toLowerCase()))

/** The single-column foreign keys the database declares, whatever the names or rows say; keys over several columns are not references a mapping field can hold. */
function declaredRefs (catalog: LiveCatalog): Ref[] {
  return catalog.references.flatMap((d) => {
    const from = catalog.table(d.schema === undefined ? d.table : `${d.schema}.${d.table}`)
    const to = catalog.table(d.toSchema === undefined ? d.toTable : `${d.toSchema}.${d.toTable}`)
    if (!from || !to || d.columns.length !== 1 || d.toColumns.length > 1) return []
    const column = from.columns.get(d.columns[0].toLowerCase())
    const key = d.toColumns.length === 1 ? to.columns.get(d.toColumns[0].toLowerCase()) : soleKey(to)
    return column && key ? [{ from, column, to, key, by: 'declared' as const }] : []
  })
}

/**
 * Numbers whose name says nothing are a reference only when they vary and most rows hold one:
 * a code that is mostly 0 (OpenEMR's `pc_recurrtype` 0, 1, 3) is a setting, whatever keys it happens to equal.
 */
function unnamedRef (t: LiveTable, c: LiveColumn, samples: Samples): boolean {
  const all = (samples.values(t, c.name) ?? []).map(asText)
  const held = all.filter((v) => v !== '' && v !== '0')
  return new Set(held).size >= 2 && held.length >= 0.5 * (samples.rows(t) ?? all.length)
}

/** A table of things with names (people, services), which references point at more often than at child rows. */
const named = (u: LiveTable): boolean => columns(u).some((c) => /name|nome|label|descr/i.test(c.name))

/** Distinct sampled values of `c` over the keys of `u` they are found among (1: every key is named). */
function tightness (t: LiveTable, c: LiveColumn, u: LiveTable, k: LiveColumn, samples: Samples): number {
  const keys = new Set((samples.values(u, k.name) ?? []).map(asText)).size
  return keys === 0 ? 0 : new Set((samples.values(t, c.name) ?? []).map(asText)).size / keys
}

function commonPrefix (a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}
