// What the whole-table scans of `ponte check` look for, row by row: appointments without a
// readable date or hour (never listed), states the mapping cannot name, clients whose phones
// or birthdays cannot be read, working hours and blocks that cannot be read or that end
// before they start (they offer or block nothing). Each kind of trouble is counted with the
// first row's id; no value read from a row is ever said.
import type { Row } from '../db/database.js'
import type { MappingModel, Value } from '../mapping/model.js'
import { asValue, whereList } from '../mapping/model.js'
import type { JoinDoc, ValueDoc, WhereDoc } from '../mapping/schema.js'
import type { LiveCatalog } from '../db/columns.js'
import { keyReader } from '../mapping/compile/key.js'
import { dateOf, hourOf, idOf, numberOf, textOf, type Decoder } from '../mapping/compile/decode.js'
import { valueReader, valuesReader } from '../mapping/compile/value.js'
import type { Scope } from '../mapping/compile/scope.js'
import { phoneProbes, probesFind, toE164 } from '../normalise/phone.js'
import { cpfProbes, normaliseCpf } from '../normalise/cpf.js'
import { probes } from '../mapping/compile/client.js'
import { count, Tally, type ScanKey, type ScanResult, type ScanSpec } from './scan.js'
import type { Findings } from './findings.js'

/** A scan and what it says once done (or cut short). */
export interface ScanJob {
  /** The mapping place the findings belong to. */
  place: string
  spec: ScanSpec
  report: (result: ScanResult, out: Findings) => void
}

/** Whether a listed professional, location or service exists (the catalogue's snapshot). */
export type Known = (kind: 'professional' | 'location' | 'service', id: string) => boolean

const blank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
const rows = (n: number): string => `${count(n)} row${n === 1 ? '' : 's'}`
const rowsOf = (n: number, r: ScanResult): string => r.complete ? `${count(n)}` : `${count(n)} of the first ${count(r.scanned)}`

export function appointmentScan (model: MappingModel, known: Known | undefined, stateCodesScanned: boolean): ScanJob {
  const a = model.appointment
  const unreadable = new Tally()
  const unknownState = new Tally()
  const dangling = new Tally()
  const spec: ScanSpec = {
    what: 'appointments',
    source: a,
    key: a.key.parts.map((p) => ({ column: p.column, type: p.type, path: `${a.path}/key` })),
    visit (scope, params, cols) {
      const id = keyReader(a.key, scope, cols, `${a.path}/key`)
      // Read as the lists read them (compile/appointment.ts): a datetime, or a date and an hour.
      const startDate = (a.start.datetime ?? a.start.date) as Value
      const startRead = a.start.datetime ? { ...startDate, format: 'datetime' as const } : startDate
      const date = dateOf(startRead, valueReader(startDate, scope, cols), a.start.datetime ? 'datetime' : 'date')
      const hourValue = (a.start.datetime ?? a.start.hour) as Value
      const hour = hourOf(a.start.datetime ? startRead : hourValue, valueReader(hourValue, scope, cols), a.start.datetime ? 'datetime' : 'text')
      // A plain state column is counted code by code in one statement; rules and templates here.
      const state = stateCodesScanned ? () => 'mapped' : textOf(valueReader(a.state, scope, cols, params))
      const refs = (['professional', 'location', 'service'] as const).flatMap((k) => a.refs[k] ? [[k, idOf(valueReader(a.refs[k] as Value, scope, cols, params))] as const] : [])
      return (row) => {
        const rowId = id(row)
        const label = rowId === undefined ? undefined : `id ${rowId}`
        if (date(row) === undefined || hour(row) === undefined) { unreadable.add(label); return }
        if (state(row) === undefined) unknownState.add(label)
        if (known && refs.some(([k, read]) => { const ref = read(row); return ref !== undefined && !known(k, ref) })) dangling.add(label)
      }
    }
  }
  return {
    place: a.path,
    spec,
    report (r, out) {
      if (unreadable.n > 0) out.problem((a.start.datetime ?? a.start.date)?.path ?? `${a.path}/start`, `${rowsOf(unreadable.n, r)} of ${count(r.total)} rows of \`${a.table}\` have an unreadable date or hour${unreadable.eg}: never listed, never counted as taken`)
      if (unknownState.n > 0) out.problem(a.state.path, `${rows(unknownState.n)} ha${unknownState.n === 1 ? 's' : 've'} a state the mapping does not map${unknownState.eg}`)
      if (dangling.n > 0) out.warning(`${a.path}/refs`, `${rows(dangling.n)} name${dangling.n === 1 ? 's' : ''} a professional, location or service that is not listed (deleted or filtered out)${dangling.eg}`)
      if (unreadable.n === 0 && unknownState.n === 0) out.ok(a.path, r.complete ? `${count(r.scanned)} rows, all readable` : `the first ${count(r.scanned)} of ${count(r.total)} rows, all readable`)
    }
  }
}

/**
 * Stored values a search would not find (issue 13): phones and CPFs are looked up by the
 * spellings their number can take (phoneProbes, cpfProbes), compared with the column as the
 * database compares. A readable value in a spelling nobody foresaw is counted, with its shape
 * (each digit as 9: never the value), at the column's line.
 */
class Unprobed {
  readable = 0
  missed = 0
  readonly shapes = new Map<string, number>()

  see (stored: unknown, found: boolean): void {
    this.readable++
    if (found) return
    this.missed++
    const shape = String(stored).replace(/\d/g, '9').slice(0, 40)
    this.shapes.set(shape, (this.shapes.get(shape) ?? 0) + 1)
  }

  report (out: Findings, path: string, kind: 'phone' | 'CPF', r: ScanResult): void {
    const part = r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`
    if (this.missed === 0) {
      out.ok(path, `all ${count(this.readable)} stored ${kind}s are found by a ${kind} search's probes${part}`)
      return
    }
    const shapes = [...this.shapes].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([shape, n]) => `\`${shape}\` ×${count(n)}`).join(', ')
    const choice = kind === 'phone' ? '{ phone: scan }' : '{ cpf: scan }'
    out.problem(path, `${count(this.missed)} of ${count(this.readable)} stored ${kind}s${part} are spelt in a way a ${kind} search does not look up, so searching them finds nobody: ${shapes}; ` +
      `correct them in the clinic's system, or search by scanning every value (\`search: [${choice}, …]\`, slower)`)
  }
}

export function clientScan (model: MappingModel, padsEquality = false): ScanJob {
  const c = model.client
  const probedPhones = model.search.includes('phone') ? c.phones.filter((p) => probes(model, 'phone', p)) : []
  const probedCpf = model.search.includes('cpf') && c.fields.cpf && probes(model, 'cpf', c.fields.cpf) ? c.fields.cpf : undefined
  const unprobed = new Map<string, Unprobed>([...probedPhones, ...(probedCpf ? [probedCpf] : [])].map((v) => [v.path, new Unprobed()]))
  const badPhone = new Tally()
  const withPhone = new Tally()
  const badBirthday = new Tally()
  const withBirthday = new Tally()
  let noPhone = 0
  const spec: ScanSpec = {
    what: 'clients',
    source: c,
    key: c.key.parts.map((p) => ({ column: p.column, type: p.type, path: `${c.path}/key` })),
    visit (scope, params, cols) {
      const id = keyReader(c.key, scope, cols, `${c.path}/key`)
      const phones = c.phones.map((p) => valuesReader(p, scope, cols, params))
      const birthdayValue = c.fields.birthday
      const birthdayRaw = birthdayValue ? valueReader(birthdayValue, scope, cols, params) : undefined
      const birthday = birthdayValue && birthdayRaw ? dateOf(birthdayValue, birthdayRaw) : undefined
      // The stored text itself, as the probes meet it in SQL (no nullIf, no trimming).
      const storedPhones = probedPhones.map((v) => ({ tally: unprobed.get(v.path) as Unprobed, key: cols.add(scope.ref(v.column as string, v.path)), read: valuesReader(v, scope, cols, params) }))
      const storedCpf = probedCpf && { tally: unprobed.get(probedCpf.path) as Unprobed, key: cols.add(scope.ref(probedCpf.column as string, probedCpf.path)), read: valueReader(probedCpf, scope, cols, params) }
      return (row) => {
        for (const p of storedPhones) {
          for (const raw of p.read(row)) {
            const e164 = toE164(raw, model.phone)
            if (e164 !== undefined) p.tally.see(row[p.key], probesFind(row[p.key], phoneProbes(e164, model.phone), padsEquality))
          }
        }
        if (storedCpf) {
          const digits = normaliseCpf(storedCpf.read(row))
          // A numeric column is compared as a number (cpfNumber): every readable value is found.
          const stored = row[storedCpf.key]
          if (digits !== undefined) storedCpf.tally.see(stored, typeof stored !== 'string' || probesFind(stored, cpfProbes(digits), padsEquality))
        }
        const rowId = id(row)
        const label = rowId === undefined ? undefined : `id ${rowId}`
        const raw = phones.flatMap((read) => read(row)).filter((x) => !blank(x))
        if (raw.length === 0) noPhone++
        else {
          withPhone.add(label)
          if (raw.some((x) => toE164(x, model.phone) === undefined)) badPhone.add(label)
        }
        if (birthdayRaw && birthday && !blank(birthdayRaw(row))) {
          withBirthday.add(label)
          if (birthday(row) === undefined) badBirthday.add(label)
        }
      }
    }
  }
  return {
    place: c.path,
    spec,
    report (r, out) {
      // A few bad values are data to clean; most of them, a mapping reading the wrong column or format.
      // A birthday schedules nothing: unreadable ones are only ever data to clean.
      const say = (bad: Tally, of: Tally, path: string, what: string, fix?: string): void => {
        if (bad.n === 0) return
        const text = `${count(bad.n)} client${bad.n === 1 ? ' has' : 's have'} ${what} that cannot be read${r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`}${bad.eg}`
        if (fix !== undefined && bad.n * 2 > of.n) out.problem(path, `${text}: most of them (${count(bad.n)} of ${count(of.n)}): ${fix}`)
        else out.warning(path, `${text}: left out of searches and answers until corrected in the clinic's system`)
      }
      say(badPhone, withPhone, c.phones[0]?.path ?? `${c.path}/phones`, 'a phone', 'check the column and `phone.defaultCountry`')
      if (c.fields.birthday) say(badBirthday, withBirthday, c.fields.birthday.path, 'a birthday')
      for (const v of probedPhones) unprobed.get(v.path)?.report(out, v.path, 'phone', r)
      if (probedCpf) unprobed.get(probedCpf.path)?.report(out, probedCpf.path, 'CPF', r)
      out.ok(c.path, `${r.complete ? '' : `the first ${count(r.scanned)} of `}${count(r.complete ? r.scanned : r.total)} rows read; ${count(noPhone)} without a phone`)
    }
  }
}

type SourceDoc = { table: string, where?: WhereDoc, joins?: Record<string, JoinDoc> } & Record<string, unknown>
type Kind = 'weekly' | 'dated' | 'blocks'

/** One source of working hours or blocked time, over its whole table. */
export function availabilityScan (model: MappingModel, doc: SourceDoc, kind: Kind, place: string, catalog: LiveCatalog): ScanJob {
  const unreadable = new Tally()
  const zero = new Tally()
  const reversed = new Tally()
  const value = (field: string): Value | undefined => doc[field] === undefined ? undefined : asValue(doc[field] as ValueDoc, `${place}/${field}`).value
  // Schedule tables have no key in the mapping: the database's primary key names a row, else its position.
  const live = catalog.table(doc.table)
  const key: ScanKey[] = [...(live?.columns.values() ?? [])].filter((col) => col.key)
    .map((col) => ({ column: col.name, type: col.kind === 'number' ? 'int' : col.kind === 'date' ? 'datetime' : 'ntext', path: `${place}/table` }))
  let position = 0
  const spec: ScanSpec = {
    what: `availability ${place.split('/').slice(2).join(' ').replace(/ (\d+)$/, '[$1]')}`,
    source: { table: doc.table, joins: doc.joins ?? {}, where: whereList(doc.where), path: place },
    key,
    visit (scope, _params, cols) {
      const ids = key.map((k) => idOf((row) => row[cols.add(scope.ref(k.column, k.path))]))
      const label = (row: Row): string => key.length === 0 ? `row ${position}` : `id ${ids.map((read) => read(row) ?? '').join('-')}`
      const classify = kind === 'blocks' ? blockReader(value, scope, cols) : windowReader(kind, value, model, scope, cols)
      return (row) => {
        position++
        const verdict = classify(row)
        if (verdict === 'unreadable') unreadable.add(label(row))
        else if (verdict === 'zero') zero.add(label(row))
        else if (verdict === 'reversed') reversed.add(label(row))
      }
    }
  }
  const effect = kind === 'blocks' ? 'block' : 'offer'
  return {
    place,
    spec,
    report (r, out) {
      if (unreadable.n > 0) out.problem(place, `${rowsOf(unreadable.n, r)} of ${count(r.total)} rows of \`${doc.table}\` cannot be read (dates, hours or ids)${unreadable.eg}: they ${effect} nothing`)
      if (zero.n > 0) out.problem(place, `${rows(zero.n)} end${zero.n === 1 ? 's' : ''} when ${zero.n === 1 ? 'it starts' : 'they start'} (zero length)${zero.eg}: ${zero.n === 1 ? `it ${effect}s` : `they ${effect}`} nothing`)
      if (reversed.n > 0) out.problem(place, `${rows(reversed.n)} end${reversed.n === 1 ? 's' : ''} before ${reversed.n === 1 ? 'it starts' : 'they start'}${reversed.eg}: ${reversed.n === 1 ? `it ${effect}s` : `they ${effect}`} nothing`)
      if (unreadable.n + zero.n + reversed.n === 0) out.ok(place, r.complete ? `${count(r.scanned)} rows, all readable` : `the first ${count(r.scanned)} of ${count(r.total)} rows, all readable`)
    }
  }
}

type Verdict = 'ok' | 'unreadable' | 'zero' | 'reversed'
type ValueOf = (field: string) => Value | undefined

const hourReader = (v: Value | undefined, scope: Scope, cols: Parameters<typeof valueReader>[2]): Decoder<string> =>
  v ? hourOf(v, valueReader(v, scope, cols)) : () => undefined

/** Weekly and dated rows, as compile/availability.ts reads them, telling unreadable from end ≤ start. */
function windowReader (kind: 'weekly' | 'dated', value: ValueOf, model: MappingModel, scope: Scope, cols: Parameters<typeof valueReader>[2]): (row: Row) => Verdict {
  const professionalValue = value('professional') as Value
  const professional = idOf(valueReader(professionalValue, scope, cols))
  const start = hourReader(value('start'), scope, cols)
  const end = hourReader(value('end'), scope, cols)
  let day: Decoder<unknown> = () => true
  if (kind === 'weekly') {
    const w = value('weekday') as Value
    const base = (model.availability?.weekly?.weekdayBase ?? 0)
    const n = numberOf(w, valueReader(w, scope, cols))
    day = (row) => { const x = n(row); return x !== undefined && Number.isInteger(x - base) && x - base >= 0 && x - base <= 6 ? x : undefined }
  } else {
    const d = value('date') ?? value('start') as Value
    day = dateOf(d, valueReader(d, scope, cols))
  }
  return (row) => {
    const s = start(row)
    const e = end(row)
    if (professional(row) === undefined || day(row) === undefined || s === undefined || e === undefined) return 'unreadable'
    return e === s ? 'zero' : e < s ? 'reversed' : 'ok'
  }
}

/** Block rows as compile/availability.ts reads them; a datetime block from midnight to the same midnight is a whole day. */
function blockReader (value: ValueOf, scope: Scope, cols: Parameters<typeof valueReader>[2]): (row: Row) => Verdict {
  const fromValue = value('from') as Value
  const toValue = value('to')
  const exact = fromValue.format === 'datetime'
  const from = dateOf(fromValue, valueReader(fromValue, scope, cols))
  const toRaw = toValue ? valueReader(toValue, scope, cols) : () => undefined
  const to = toValue ? dateOf(toValue, toRaw) : () => undefined
  const start = exact ? hourOf(fromValue, valueReader(fromValue, scope, cols)) : hourReader(value('start'), scope, cols)
  const end = exact && toValue ? hourOf(toValue, valueReader(toValue, scope, cols)) : hourReader(value('end'), scope, cols)
  return (row) => {
    const first = from(row)
    const open = blank(toRaw(row))
    const last = open ? first : to(row)
    if (first === undefined || last === undefined) return 'unreadable'
    if (last < first) return 'reversed'
    const s = start(row)
    const e = exact && open ? undefined : end(row)
    if (s === undefined || e === undefined || (exact && last > first)) return 'ok'
    if (exact && s === '00:00' && e === '00:00') return 'ok'
    return e === s ? 'zero' : e < s ? 'reversed' : 'ok'
  }
}
