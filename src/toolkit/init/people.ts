// A person's columns, judged by name and by value: given and family names (mostly letters),
// phones and e-mails in columns or in key/value child rows, a CPF only when the values validate
// as CPFs, a birthday with the format its values show. Used for clients and providers alike.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import { AUDIT_NAME, type Ref } from './refs.js'
import type { Samples } from './sample.js'
import { columns, soleKey } from './tables.js'
import { asText, cpfLike, dateSpelling, emailLike, labelLike, nameLike, phoneLike, phoneValue, share, EMAIL_VALUE } from './values.js'

// `_nm`/`_nme`: the abbreviations of US/UK hospital schemas (`first_nm`, `last_nme`).
const FIRST = /^(first_?(name|nme?)|given(_?(name|nme?))?|fname|primeiro_?nome|forename|nome)$/i
const LAST = /^(last_?(name|nme?)|lastname|family(_?(name|nme?))?|lname|sobrenome|surname|apelido)$/i
export const NAME = /^(nome|name|nm|nome_completo|full_?name|display(_?name)?|descr(icao)?|description|label|title|nome_\w+|\w+_?name|\w+_nome)$/i
const PHONE = /(cel|fone|phone|tel|mobile|whats|wireless)/i
const MOBILE = /(cel|mobile|wireless|cell|whats|movel)/i

/** How a person's name is read: one column, or given and family names as a template. */
export interface Names { first?: LiveColumn, last?: LiveColumn, name?: LiveColumn }

/**
 * A column holds names when it is named like one and, where rows were read, its values are
 * mostly letters and spaces: a person's; or, for `labels` (a site, a service), words that may
 * carry digits and signs (`Urgent Care (24h)`).
 */
const holdsNames = (t: LiveTable, c: LiveColumn, samples: Samples, labels: boolean): boolean =>
  c.kind !== 'number' && c.kind !== 'date' && (labels ? labelLike : nameLike)(samples.values(t, c.name) ?? []) !== false

/** `labels`: the names of things (places, services), which digits and brackets do not disqualify. */
export function namesOf (t: LiveTable, samples: Samples, labels = false): Names | undefined {
  const pick = (re: RegExp, not: LiveColumn[] = []): LiveColumn | undefined => columns(t).find((c) => re.test(c.name) && !not.includes(c) && holdsNames(t, c, samples, labels))
  const first = pick(FIRST)
  const last = pick(LAST)
  if (first && last) return { first, last }
  const name = pick(NAME, last ? [last] : [])
  if (name && last) return { first: name, last }
  return name ? { name } : last ? { name: last } : undefined
}

/** A person's names kept in the table another of its columns names (GNU Health's patient → party). */
export function namesThrough (t: LiveTable, refs: Ref[], samples: Samples, labels = false): { via: Ref, names: Names } | undefined {
  for (const r of refs.filter((r) => r.from === t)) {
    const names = namesOf(r.to, samples, labels)
    if (names) return { via: r, names }
  }
  return undefined
}

/**
 * A person's given and family names kept in child rows naming the person (OpenMRS's
 * `person_name` → `person`), the table's own key being the person's id (`patient.patient_id` →
 * `person.person_id`) or the table itself named; `on` pairs the table's column with the child's.
 */
export function namesBelow (t: LiveTable, refs: Ref[], samples: Samples): { child: Ref, on: LiveColumn, person: LiveTable, names: Names } | undefined {
  const key = soleKey(t)
  const persons = [{ person: t, on: undefined as LiveColumn | undefined }, ...refs.filter((r) => r.from === t && key !== undefined && r.column === key).map((r) => ({ person: r.to, on: key }))]
  for (const { person, on } of persons) {
    for (const r of refs.filter((r) => r.to === person && r.from !== t)) {
      const names = namesOf(r.from, samples)
      if (names?.first !== undefined && names.last !== undefined) return { child: r, on: on ?? r.key, person, names }
    }
  }
  return undefined
}

export function phoneColumns (t: LiveTable, samples: Samples): LiveColumn[] {
  return columns(t).filter((c) => PHONE.test(c.name) && c.kind !== 'date' && phoneLike(samples.values(t, c.name) ?? []) !== false &&
    (c.kind !== 'number' || samples.values(t, c.name) !== undefined))
    .sort((a, b) => Number(MOBILE.test(b.name)) - Number(MOBILE.test(a.name)))
}

export function emailColumn (t: LiveTable, samples: Samples): LiveColumn | undefined {
  return columns(t).find((c) => /^(e_?mail|email_?\w*|\w+_email)$/i.test(c.name) && emailLike(samples.values(t, c.name) ?? []) !== false)
}

/** A CPF column only when its values validate as CPFs; with no rows, only a column named `cpf`, said to be unchecked. */
export function cpfColumn (t: LiveTable, samples: Samples): { column: LiveColumn, checked: boolean } | undefined {
  for (const c of columns(t).filter((c) => c.kind === 'text' || c.kind === 'number')) {
    const values = samples.values(t, c.name) ?? []
    const valid = cpfLike(values)
    if (valid === true) return { column: c, checked: true }
    if (valid === undefined && /^(cpf|nr_?cpf|num_?cpf)$/i.test(c.name)) return { column: c, checked: false }
  }
  return undefined
}

export function birthdayOf (t: LiveTable, samples: Samples): { column: LiveColumn, format: string, note?: string } | undefined {
  const c = columns(t).find((c) => /(nasc|birth|dob|born)/i.test(c.name))
  if (!c) return undefined
  if (c.kind === 'date') return { column: c, format: 'date' }
  const spelling = dateSpelling(samples.values(t, c.name) ?? [], c.kind)
  if (c.kind === 'number') return { column: c, format: 'int' }
  // Values that are no date (a year alone, as OSCAR's year_of_birth): not a birthday column to guess.
  if (!spelling && (samples.values(t, c.name) ?? []).length > 0) return undefined
  if (spelling) return { column: c, format: spelling.format === 'datetime' ? 'datetime' : spelling.format, note: spelling.note ? `${spelling.note} (e.g. ${spelling.example})` : undefined }
  return { column: c, format: 'text', note: 'no sampled value to tell its spelling: text means YYYY-MM-DD' }
}

/** Child rows holding a person's contacts: a kind column and a value column, phones under some kinds and e-mails under others. */
export interface ContactRows {
  ref: Ref
  kind: LiveColumn
  value: LiveColumn
  phoneKinds: string[]
  emailKind?: string
  /** Rows counted per kind, for the comment. */
  seen: string
  /** The flag of rows still in use, where the rows have one: only those are read. */
  active?: LiveColumn
}

/** The names of a kind's values where the kind names rows of a type table (`person_attribute_type_id` 8 → `Telephone Number`). */
function kindLabels (child: LiveTable, kind: LiveColumn, refs: Ref[], samples: Samples): Map<string, string> {
  const ref = refs.find((r) => r.from === child && r.column === kind)
  const names = ref === undefined ? undefined : namesOf(ref.to, samples, true)
  const label = names?.name ?? names?.first
  const out = new Map<string, string>()
  if (ref === undefined || label === undefined) return out
  for (const r of samples.records(ref.to) ?? []) {
    const k = r[ref.key.name.toLowerCase()]
    const v = r[label.name.toLowerCase()]
    if (k !== null && k !== undefined && v !== null && v !== undefined) out.set(asText(k), asText(v))
  }
  return out
}

/** A kind that names a phone line (`mobile`, `MOB`, `TEL`, `demo_cell`, `HmPhone`). */
const PHONE_KIND = /(cel|mob|tel|fone|phone|whats|movel|wireless|sms)/i
/** A line no patient answers: a fax is spelt as a phone but nobody calls it or texts it. */
const NOT_CALLED = /fax/i
/** A flag marking rows still in use (Tryton's `active`): rows switched off are no contacts. */
const ACTIVE_NAME = /^(active|ativo|is_?active)$/i
/** Written as a phone is, with a `+`, brackets, spaces or dashes: bare digits may be a policy or record number. */
const PUNCTUATED = /^\+|[\s().-]/

/**
 * The child rows holding a person's contacts: among every kind/value pair of the tables naming
 * the person, the one whose phone kinds are named as phones (GNU Health's `party_contact_mechanism`
 * `phone`/`mobile` rows, not the numbers of `gnuhealth_insurance` by `insurance_type`). A kind not
 * named as a phone is one only when its values are written as phones are.
 */
export function contactRows (person: LiveTable, refs: Ref[], samples: Samples): ContactRows | undefined {
  const found: Array<ContactRows & { score: number }> = []
  for (const ref of refs.filter((r) => r.to === person)) {
    const child = ref.from
    const kinds = columns(child).filter((c) => c !== ref.column && c.kind === 'text')
    // A kind may be a number naming a type row (OpenMRS's `person_attribute_type_id` 8): its values must then be spelt as phones.
    const numbered = columns(child).filter((c) => c !== ref.column && c.kind === 'number' && !c.key && !AUDIT_NAME.test(c.name) &&
      !/(^|_)(id|no|nr|num)$/i.test(c.name.replace(/_?type_?id$/i, '')))
    for (const kind of [...kinds, ...numbered]) {
      const ks = samples.values(child, kind.name)
      if (!ks || ks.length === 0 || new Set(ks.map(asText)).size > 12) continue
      // A code column (`COD_TUSS`) is no contact, however its digits look.
      for (const value of kinds.filter((v) => v !== kind && !/(^|_)(cod|code|id)(_|$)/i.test(v.name))) {
        const vs = samples.values(child, value.name) ?? []
        const byKind = new Map<string, string[]>()
        // Kinds and values read in the same row order, so the two lists pair up.
        const rowsK = samples.values(child, kind.name) ?? []
        if (rowsK.length !== vs.length) continue
        rowsK.forEach((k, i) => { byKind.set(asText(k), [...byKind.get(asText(k)) ?? [], asText(vs[i])]) })
        // Most rows first (the first is the kind a new phone is written as), then by name: the same draft whatever order rows came in.
        const named = kindLabels(child, kind, refs, samples)
        const phoneKinds = [...byKind].filter(([k, v]) => !NOT_CALLED.test(k) && !NOT_CALLED.test(named.get(k) ?? '') && v.filter(phoneValue).length / v.length >= 0.8 &&
          (PHONE_KIND.test(k) || PHONE_KIND.test(named.get(k) ?? '') || v.filter((x) => PUNCTUATED.test(x)).length / v.length >= 0.8))
          .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([k]) => k)
        const emailKind = [...byKind].find(([, v]) => v.filter((x) => EMAIL_VALUE.test(x)).length / v.length >= 0.8)?.[0]
        if (phoneKinds.length === 0 && emailKind === undefined) continue
        const score = phoneKinds.filter((k) => PHONE_KIND.test(k) || PHONE_KIND.test(named.get(k) ?? '')).length * 2 + phoneKinds.length + (emailKind === undefined ? 0 : 2)
        const active = columns(child).find((c) => ACTIVE_NAME.test(c.name) && /bool|tinyint\(1\)/i.test(c.declared))
        found.push({ ref, kind, value, phoneKinds, emailKind, ...active ? { active } : {}, seen: [...byKind].map(([k, v]) => `${named.has(k) ? `${k} (${named.get(k) ?? ''})` : k}: ${v.length}`).join(', '), score })
      }
    }
  }
  const best = found.sort((a, b) => b.score - a.score)[0]
  if (best === undefined) return undefined
  const { score: _, ...rows } = best
  return rows
}

/** Child rows holding a person's CPF (GNU Health's `party_identifier` rows of type `br_cpf`): the kind that marks them, where there is one. */
export interface CpfRows { ref: Ref, value: LiveColumn, kind?: LiveColumn, kindValue?: string }

/** The child rows whose values (under one kind, where a kind column sorts them) are valid CPFs; undefined when none. */
export function cpfRows (person: LiveTable, refs: Ref[], samples: Samples): CpfRows | undefined {
  for (const ref of refs.filter((r) => r.to === person)) {
    const child = ref.from
    const rows = samples.records(child) ?? []
    if (rows.length === 0) continue
    const texts = columns(child).filter((c) => c !== ref.column && c.kind === 'text')
    for (const value of texts) {
      // Eleven digits written out (`10019187033`, `100.191.870-33`), never a small number a CPF check would pad.
      if ((share(samples.values(child, value.name) ?? [], (v) => v.replace(/\D/g, '').length === 11) ?? 0) < 0.8) continue
      const kinds = texts.filter((k) => k !== value && new Set(rows.map((r) => r[k.name.toLowerCase()])).size <= 12)
      for (const kind of [...kinds, undefined]) {
        const groups = new Map<string, unknown[]>()
        for (const r of rows) {
          const k = kind === undefined ? '' : asText(r[kind.name.toLowerCase()])
          groups.set(k, [...groups.get(k) ?? [], r[value.name.toLowerCase()]].filter((v) => v !== null && v !== undefined))
        }
        const hit = [...groups].find(([, vs]) => vs.length > 0 && cpfLike(vs) === true)
        if (hit) return { ref, value, ...kind === undefined ? {} : { kind, kindValue: hit[0] } }
      }
    }
  }
  return undefined
}
