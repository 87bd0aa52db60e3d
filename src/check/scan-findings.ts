// What the whole-table scans of `ponte check` look for, row by row: appointments without a
// readable date or hour (never listed), states the mapping cannot name, clients whose phones
// or birthdays cannot be read, working hours and blocks that cannot be read (a bound or an
// hour holding something no reader can tell), that end before they start, or that the
// server's date filter never returns (they offer or block nothing). Each kind of trouble is
// counted with the first row's id; no value read from a row is ever said.
import type { Database } from '../db/database.js'
import type { MappingModel, Value } from '../mapping/model.js'
import type { CheckPlans, ProbedColumn, ScanKey, ScanPlan, ScheduleScan } from '../mapping/compile/index.js'
import type { LiveCatalog } from '../db/columns.js'
import { toE164 } from '../normalise/phone.js'
import { zoneCountries } from '../normalise/zone-country.js'
import { readings } from '../toolkit/init/phones.js'
import { count, scanTable, Tally, type ScanClock, type ScanResult } from './table-scan.js'
import type { Findings } from './findings.js'
import { StateEvidence } from './state-evidence.js'

/** A scan and what it says once done (or cut short). */
export interface ScanJob {
  /** The mapping place the findings belong to. */
  place: string
  /** Plural, for progress lines: `appointments`. */
  what: string
  scan: (db: Database, clock: ScanClock) => Promise<ScanResult>
  report: (result: ScanResult, out: Findings) => void
}

/** Whether a listed professional, location or service exists (the catalogue's snapshot). */
export type Known = (kind: 'professional' | 'location' | 'service', id: string) => boolean

/** A ref whose values name a listed record this rarely is read from the wrong column. */
const MISREAD_SHARE = 0.8
const MISREAD_ROWS = 10

const rows = (n: number): string => `${count(n)} row${n === 1 ? '' : 's'}`
const rowsOf = (n: number, r: ScanResult): string => r.complete ? `${count(n)}` : `${count(n)} of the first ${count(r.scanned)}`

/** The plan is compiled when the scan starts, so a scan that cannot be built is reported as one that failed. */
const scanning = <T>(plan: () => ScanPlan<T>, visit: (row: T) => void) => async (db: Database, clock: ScanClock): Promise<ScanResult> => await scanTable(db, plan(), visit, clock)

export function appointmentScan (model: MappingModel, plans: CheckPlans, known: Known | undefined, today?: string): ScanJob {
  const a = model.appointment
  const evidence = new StateEvidence(model, today)
  const unreadable = new Tally()
  const unknownState = new Tally()
  // A ref without a lookup resource names nothing that could be listed: not counted.
  const refKinds = (['professional', 'location', 'service'] as const).filter((k) => model.lookups[k] !== undefined)
  const naming = { professional: 0, location: 0, service: 0 }
  const dangling = { professional: new Tally(), location: new Tally(), service: new Tally() }
  return {
    place: a.path,
    what: 'appointments',
    scan: scanning(plans.appointments, (row) => {
      const label = row.id === undefined ? undefined : `id ${row.id}`
      if (!row.readable) { unreadable.add(label); return }
      if (row.unmappedState) unknownState.add(label)
      evidence.see(row)
      if (known) {
        for (const k of refKinds) {
          const ref = row.refs[k]
          if (ref === undefined) continue
          naming[k]++
          if (!known(k, ref)) dangling[k].add(label)
        }
      }
    }),
    report (r, out) {
      if (unreadable.n > 0) out.problem((a.start.datetime ?? a.start.date)?.path ?? `${a.path}/start`, `${rowsOf(unreadable.n, r)} of ${count(r.total)} rows of \`${a.table}\` have an unreadable date or hour${unreadable.eg}: never listed, never counted as taken`)
      if (unknownState.n > 0) out.problem(a.state.path, `${rows(unknownState.n)} ha${unknownState.n === 1 ? 's' : 've'} a state the mapping does not map${unknownState.eg}`)
      for (const k of refKinds) {
        const d = dangling[k]
        if (d.n === 0) continue
        const place = a.refs[k]?.path ?? `${a.path}/refs`
        const said = `${rowsOf(d.n, r)} of the ${count(naming[k])} naming a ${k} name one that is not listed${d.eg}`
        // Nearly all of them, from a table the mapping does not filter (so they do not exist):
        // the ref reads another column than the one holding the key (a wrong guess).
        const misread = d.n >= MISREAD_ROWS && d.n >= naming[k] * MISREAD_SHARE
        const filtered = (model.lookups[k]?.where.length ?? 0) > 0
        if (misread && !filtered) out.problem(place, `${said}: is this the column that holds the ${k}'s key? (A booking would store a ${k} id there)`)
        else out.warning(place, `${said} (deleted or filtered out${misread ? `: if the ${k} resource's \`where\` does not leave them out, this ref reads the wrong column` : ''})`)
      }
      evidence.report(out)
      if (unreadable.n === 0 && unknownState.n === 0) out.ok(a.path, r.complete ? `${count(r.scanned)} rows, all readable` : `the first ${count(r.scanned)} of ${count(r.total)} rows, all readable`)
    }
  }
}

/**
 * Stored values a search would not find (issue 13): phones and CPFs are looked up by the
 * spellings their number can take (the compiler's probes), compared with the column as the
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

  report (out: Findings, { path, kind }: ProbedColumn, r: ScanResult): void {
    const part = r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`
    if (this.missed === 0) {
      out.ok(path, `all ${count(this.readable)} stored ${kind}s are found by a ${kind} search's probes${part}`)
      return
    }
    const shapes = [...this.shapes].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([shape, n]) => `\`${shape}\` ×${count(n)}`).join(', ')
    const choice = kind === 'phone' ? '{ phone: scan }' : '{ cpf: scan }'
    // A warning: search still finds them, by scanning every stored value once the probes find
    // nobody (services/clients.ts); but each such search reads the whole table, and a client
    // spelt so is missed when another holds the same number in a probed spelling.
    out.warning(path, `${count(this.missed)} of ${count(this.readable)} stored ${kind}s${part} are spelt in a way a ${kind} search's probes do not look up: ${shapes}; ` +
      `a search finds them only by reading every stored value (and not when another client holds the same number in a probed spelling): correct them in the clinic's system, or scan always (\`search: [${choice}, …]\`)`)
  }
}

/**
 * The installation's zone against the phones' country: when most stored numbers read only as
 * another country's (a Chicago practice left on the default America/Sao_Paulo), every time the
 * server reads, writes and stamps is hours off, and nothing else would say so.
 */
class ClockCountry {
  private readonly zone: string[]
  private readonly tried: string[]
  private phones = 0
  private readonly elsewhere = new Map<string, number>()

  constructor (private readonly model: MappingModel) {
    this.zone = zoneCountries(model.timezone)
    this.tried = [...new Set([...this.zone, model.phone.defaultCountry])]
  }

  see (stored: string): void {
    if (this.zone.length === 0) return
    const read = readings(stored, this.tried)
    if (read.length === 0) return
    this.phones++
    if (read.some((x) => this.zone.includes(x.country as string))) return
    const country = read[0].country as string
    this.elsewhere.set(country, (this.elsewhere.get(country) ?? 0) + 1)
  }

  report (out: Findings, r: ScanResult): void {
    const [country, n] = [...this.elsewhere].sort((a, b) => b[1] - a[1])[0] ?? []
    if (country === undefined || n === undefined || n * 2 <= this.phones) return
    const given = (this.model.doc as { timezone?: unknown }).timezone !== undefined
    out.problem(given ? '/timezone' : '/installation', `the installation's zone \`${this.model.timezone}\`${given ? '' : ' (the default: no `timezone` is given)'} is kept in ${this.zone.join(', ')}, ` +
      `but ${count(n)} of ${count(this.phones)} stored phones${r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`} read only as numbers of ${country}: ` +
      `every time served, written and stamped would be on the wrong clock; set \`timezone:\` to the clinic's IANA zone in ${country} (docs/mapping.md)`)
  }
}

// What "cannot be read" means for a phone, so nobody corrects a number that is right.
const PHONE_WHY = ' (read: a number of `phone.defaultCountry` its ranges know, or one written with its country code and the right number of digits for that country)'

export function clientScan (model: MappingModel, plans: CheckPlans): ScanJob {
  const c = model.client
  // Per entry of `phones`: a column of unreadable numbers is named, not the first one.
  const badPhone = c.phones.map(() => new Tally())
  const withPhone = c.phones.map(() => new Tally())
  const badBirthday = new Tally()
  const padding = { padded: new Tally(), unpadded: new Tally() }
  const withBirthday = new Tally()
  let noPhone = 0
  const notCpf = new Tally()
  let withCpf = 0
  const unprobed = new Map(plans.probedColumns.map((col) => [col.path, new Unprobed()]))
  const clock = new ClockCountry(model)
  return {
    place: c.path,
    what: 'clients',
    scan: scanning(plans.clients, (row) => {
      const label = row.id === undefined ? undefined : `id ${row.id}`
      // Counted as the server answers: a client whose every stored phone is unreadable gets none.
      let answered = false
      row.phones.forEach((held, i) => {
        if (held.length === 0) return
        withPhone[i]?.add(label)
        for (const x of held) clock.see(String(x))
        const read = held.map((x) => toE164(x, model.phone) !== undefined)
        if (read.includes(false)) badPhone[i]?.add(label)
        if (read.includes(true)) answered = true
      })
      if (!answered) noPhone++
      if (row.birthday !== undefined) {
        withBirthday.add(label)
        if (!row.birthday) badBirthday.add(label)
      }
      if (row.birthdayPadded !== undefined) padding[row.birthdayPadded ? 'padded' : 'unpadded'].add(label)
      if (row.cpf !== undefined) withCpf++
      if (row.cpf === false) notCpf.add(label)
      for (const p of row.probed) unprobed.get(p.path)?.see(p.stored, p.found)
    }),
    report (r, out) {
      // A few bad values are data to clean; most of them, a mapping reading the wrong column or format.
      // A birthday schedules nothing: unreadable ones are only ever data to clean.
      const say = (bad: Tally, of: Tally, path: string, what: string, fix?: string): void => {
        if (bad.n === 0) return
        const text = `${count(bad.n)} client${bad.n === 1 ? ' has' : 's have'} ${what} that cannot be read${r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`}${bad.eg}`
        if (fix !== undefined && bad.n * 2 > of.n) out.problem(path, `${text}: most of them (${count(bad.n)} of ${count(of.n)}): ${fix}`)
        else out.warning(path, `${text}: left out of searches and answers until corrected in the clinic's system${what === 'a phone' ? PHONE_WHY : ''}`)
      }
      c.phones.forEach((p, i) => say(badPhone[i], withPhone[i], p.path, 'a phone', 'check the column, `phone.defaultCountry` and `phone.defaultAreaCode`'))
      if (c.fields.birthday) say(badBirthday, withBirthday, c.fields.birthday.path, 'a birthday')
      if (c.fields.birthday?.template !== undefined) padWarning(c.fields.birthday, padding, out)
      // Mostly not CPFs: another country's number (a Portuguese NIF), which the interface would give as a CPF.
      if (c.fields.cpf && notCpf.n * 2 > withCpf) {
        out.warning(c.fields.cpf.path, `${count(notCpf.n)} of ${count(withCpf)} stored values${r.complete ? '' : ` (in the first ${count(r.scanned)} rows)`} are not valid CPFs${notCpf.eg}: ` +
          'the interface\'s `cpf` is Brazil\'s taxpayer number (11 digits, check digits), answered, searched and written as one; a column of another number (a Portuguese NIF) should be left unmapped, or mapped as `externalId` (read-only)')
      }
      for (const col of plans.probedColumns) unprobed.get(col.path)?.report(out, col, r)
      clock.report(out, r)
      out.ok(c.path, `${r.complete ? '' : `the first ${count(r.scanned)} of `}${count(r.complete ? r.scanned : r.total)} rows read; ${count(noPhone)} answered without a phone (none stored, or none readable)`)
    }
  }
}

/** One source of working hours or blocked time, over its whole table. */
/** Rows past which a source read whole on every request is worth a warning. */
const UNNARROWED_ROWS = 5000

export function availabilityScan (source: ScheduleScan, catalog: LiveCatalog): ScanJob {
  const { place, table, kind } = source
  const unreadable = new Tally()
  const zero = new Tally()
  const reversed = new Tally()
  const unreached = new Tally()
  const rule = new Tally()
  const oneDay = new Tally()
  // Schedule tables have no key in the mapping: the database's primary key names a row, else its position.
  const key: ScanKey[] = [...(catalog.table(table)?.columns.values() ?? [])].filter((col) => col.key)
    .map((col) => ({ column: col.name, type: col.kind === 'number' ? 'int' : col.kind === 'date' ? 'datetime' : 'ntext' }))
  let position = 0
  const effect = kind === 'blocks' ? 'block' : 'offer'
  const days = [0, 0, 0, 0, 0, 0, 0]
  return {
    place,
    what: source.what,
    scan: scanning(() => source.plan(key), (row) => {
      position++
      const label = row.id !== undefined ? `id ${row.id}` : `row ${position}`
      if (row.fault === 'unreadable') unreadable.add(label)
      else if (row.fault === 'zero') zero.add(label)
      else if (row.fault === 'reversed') reversed.add(label)
      else if (row.fault === 'unreached') unreached.add(label)
      else if (row.fault === 'rule') rule.add(label)
      if (row.weekday !== undefined) days[row.weekday]++
      if (row.oneDay === true) oneDay.add(label)
    }),
    report (r, out) {
      if (unreadable.n > 0) out.problem(place, `${rowsOf(unreadable.n, r)} of ${count(r.total)} rows of \`${table}\` cannot be read (dates, hours or ids)${unreadable.eg}: they ${effect} nothing`)
      if (zero.n > 0) out.problem(place, `${rows(zero.n)} end${zero.n === 1 ? 's' : ''} when ${zero.n === 1 ? 'it starts' : 'they start'} (zero length)${zero.eg}: ${zero.n === 1 ? `it ${effect}s` : `they ${effect}`} nothing`)
      if (reversed.n > 0) out.problem(place, `${rows(reversed.n)} end${reversed.n === 1 ? 's' : ''} before ${reversed.n === 1 ? 'it starts' : 'they start'}${reversed.eg}: ${reversed.n === 1 ? `it ${effect}s` : `they ${effect}`} nothing`)
      if (unreached.n > 0) out.problem(place, `${rowsOf(unreached.n, r)} of ${count(r.total)} rows of \`${table}\` read well but are never returned by the server's date filter (it compares the stored dates as the database does: check their \`format\`)${unreached.eg}: they ${effect} nothing`)
      if (rule.n > 0) {
        out.problem(`${place}/repeat`, `${rowsOf(rule.n, r)} of ${count(r.total)} rows of \`${table}\` recur by a \`repeat\` rule that cannot be read${rule.eg}: ` +
          (kind === 'blocks' ? 'each blocks its hours on every day from its first date (to its `until`, or on), as it could fall on any of them' : 'they offer nothing'))
      }
      if (unreadable.n + zero.n + reversed.n + unreached.n + rule.n === 0) out.ok(place, r.complete ? `${count(r.scanned)} rows, all readable` : `the first ${count(r.scanned)} of ${count(r.total)} rows, all readable`)
      if (kind === 'weekly') shiftedWeekdays(days, place, out)
      if (source.unnarrowed && r.total > UNNARROWED_ROWS) {
        out.warning(source.unnarrowed.path, `\`kind\` is read by \`extract\`, which SQL cannot compare: every /availability and booking reads every row of \`${table}\` starting by the last day asked (${count(r.total)} rows now, one-off rows of past years included); ` +
          'read `kind` from a column of its own, with a `map` (`{ column: pc_recurrtype, map: { 0: once, 1: every } }`), so the database leaves past one-off rows out, or archive old rows')
      }
      // A far-future end is how clinics say "never ends"; as a sentinel it makes that end none,
      // and a block without an end is its one day `from` (decisions/block-without-end.md).
      const far = source.farSentinel
      if (far && oneDay.n > 0) {
        out.warning(far.path, `\`${far.value}\` under \`nullIf\` reads that end as none, and a block without an end is the one day \`from\`: ` +
          `${rowsOf(oneDay.n, r)} of ${count(r.total)} rows of \`${table}\` ${oneDay.n === 1 ? 'is' : 'are'} then read as one-day blocks${oneDay.eg}, ` +
          `where \`${far.value}\` meant "never ends": remove it from \`nullIf\` (a \`to\` of \`${far.value}\` then blocks every day from \`from\` on)`)
      }
    }
  }
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/**
 * Working hours read mostly on a weekend while a weekday has fewer (or none) are the mark of
 * a numbering read one day off (ISO Monday 1 read with `weekdayBase: 1`): every row reads,
 * so nothing else would say so. Day counts only, never a row's other values.
 */
function shiftedWeekdays (days: number[], place: string, out: Findings): void {
  const weekdays = [1, 2, 3, 4, 5]
  const fewest = weekdays.reduce((a, b) => days[b] < days[a] ? b : a)
  const weekend = [0, 6].filter((d) => days[d] > days[fewest])
  if (weekend.length === 0) return
  const spread = days.map((n, d) => `${DAY_NAMES[d].slice(0, 3)} ${count(n)}`).join(', ')
  out.warning(`${place}/weekday`, `more rows are read as ${weekend.map((d) => DAY_NAMES[d]).join(' and ')} than as ${DAY_NAMES[fewest]} (${spread}): is the numbering one day off? ` +
    '`weekdayBase: 0` reads Sunday 0 … Saturday 6, `1` Sunday 1 … Saturday 7, `iso` Monday 1 … Sunday 7')
}

// A split birthday written in a padding most stored rows do not use: the clinic's program
// would meet `07` beside `7` (it reads, but its own screens and searches may not).
function padWarning (birthday: Value, seen: { padded: Tally, unpadded: Tally }, out: Findings): void {
  const pad = birthday.pad ?? 2
  const other = pad === 2 ? seen.unpadded : seen.padded
  const same = pad === 2 ? seen.padded : seen.unpadded
  if (other.n === 0 || other.n <= same.n) return
  out.warning(`${birthday.path}${birthday.pad === undefined ? '' : '/pad'}`,
    `${count(other.n)} of ${count(other.n + same.n)} stored birthdays keep a month or day below 10 ${pad === 2 ? 'unpadded (`7`)' : 'zero-padded (`07`)'}${other.eg}, but writes store it ${pad === 2 ? '`07`' : '`7`'}: give \`pad: ${pad === 2 ? 1 : 2}\``)
}
