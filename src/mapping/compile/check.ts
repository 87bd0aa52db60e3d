// The plans `ponte check` reads the stored data with (check/table-scan.ts says how): keys that repeat,
// joins that multiply rows, state codes, and every appointment, client and schedule row read
// as the server reads them. Each plan is compiled when check asks for it: a mapping whose
// catalog pass failed never has its scans built.
import type { Dialect } from '../../sql/dialect.js'
import type { MappingModel, TableModel, Value } from '../model.js'
import { scheduleScans, type ScheduleScan } from './availability.js'
import { dateOf, hourOf, idOf, textOf } from './decode.js'
import { keyReader, keyText } from './key.js'
import { aggregate, scanPlan, type ReadPlan, type ScanPlan } from './scan.js'
import { freeFlag } from './open-slots.js'
import { clientNamedPlans, type ClientNamedPlan } from './client-named.js'
import { slotRowChecks, type SlotRowChecks } from './slot-rows.js'
import { valueReader, valuesReader } from './value.js'
import { probes } from './client.js'
import { codeMatcher, codeRule } from './codes.js'
import { phoneProbes, probesFind, toE164 } from '../../normalise/phone.js'
import { cpfProbes, isValidCpf, normaliseCpf } from '../../normalise/cpf.js'
import { textShape } from '../../normalise/text.js'
import { inClinicTime, storedClock } from './stored-clock.js'
import { onColumns } from './join-on.js'

/** Rows against distinct keys. */
export interface KeyCount { rows: number, keys: number }

/** A stored state code the mapping does not map: how many rows hold it, and the smallest id among them. */
export interface StateCode { code: string, rows: number, example: string }

export interface AppointmentScanRow {
  id?: string
  /** Date and hour readable (else the row is never listed). */
  readable: boolean
  /** A state the mapping cannot name (never set where stateCodes counts the codes instead). */
  unmappedState: boolean
  refs: Partial<Record<'professional' | 'location' | 'service', string>>
  /** The start as read (`YYYY-MM-DD`, `HH:MM`), where readable. */
  day?: string
  hour?: string
  /** Where the state is a plain mapped column: the map's key the stored code reads as (absent for a code it does not map). */
  code?: string
}

export interface ClientScanRow {
  id?: string
  /** The phones the row holds per entry of the mapping's `phones`, as stored (blanks left out). */
  phones: unknown[][]
  /** Whether the stored birthday reads as a date; absent when none is stored. */
  birthday?: boolean
  /** Whether a stored CPF is one (11 digits, check digits right); absent when none is stored. */
  cpf?: boolean
  /** A stored text birthday's shape, each digit as 9 (`99.99.9999`): how the column spells dates, never the date. */
  birthdayShape?: string
  /** A birthday kept in three columns: whether a month or day below 10 is stored `07` or `7`; absent when none tells. */
  birthdayPadded?: boolean
  /** Each readable value of a probed column (ProbedColumn), as stored, and whether a search's probes find it. */
  probed: { path: string, stored: unknown, found: boolean }[]
}

/** A phone or CPF column a search looks up by probes (client.ts): check counts what they would miss. */
export interface ProbedColumn { path: string, kind: 'phone' | 'CPF' }

export interface CheckPlans {
  /** COUNT(*) against COUNT(DISTINCT key) over a table's rows, alone or with one of its joins. */
  keyCount: (table: TableModel, join?: string) => ReadPlan<KeyCount>
  /**
   * The state codes no rule of the mapping names, over the whole table, where the state is a
   * mapped column of the appointment's own table (undefined otherwise: the appointment scan
   * reads the state row by row instead).
   */
  stateCodes?: () => ReadPlan<StateCode | undefined>
  appointments: () => ScanPlan<AppointmentScanRow>
  clients: () => ScanPlan<ClientScanRow>
  probedColumns: ProbedColumn[]
  /** Working hours and blocks, each source whole. */
  schedules: ScheduleScan[]
  /** Slot-based booking's data, where the mapping books into slots. */
  slotRows?: SlotRowChecks
  /** How many rows are open slots (`openSlots.free`), where the mapping keeps them as rows. */
  openSlots?: () => ReadPlan<number>
  /** A column of the table's own rows as stored text, each digit as 9 (`99/99/9999`): how it spells a stamp, never the value. */
  columnShapes: (table: TableModel, column: string) => ScanPlan<string | undefined>
  /** Lookups named through a join to the table the client's name is read from: how many of their rows reach a client's own row. */
  clientNamed: ClientNamedPlan[]
}

const REFS = ['professional', 'location', 'service'] as const
const blank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
const nameOf = (t: TableModel): string => t.path.split('/').pop() ?? ''

export function compileCheck (model: MappingModel, d: Dialect): CheckPlans {
  const a = model.appointment
  const c = model.client
  const state = a.state
  const probedPhones = model.search.includes('phone') ? c.phones.filter((p) => probes(model, 'phone', p)) : []
  const probedCpf = model.search.includes('cpf') && c.fields.cpf && probes(model, 'cpf', c.fields.cpf) ? c.fields.cpf : undefined
  const stateColumn = state.column !== undefined && state.map !== undefined && !state.column.includes('.') ? state.column : undefined
  const plans: CheckPlans = {
    keyCount: (t, join) => ({
      statement: aggregate(`${nameOf(t)}.count`, d, t, (scope, params) => {
        if (join) scope.ref(`${join}.${Object.values(onColumns(t.joins[join].on))[0] ?? 'x'}`, t.path)
        const key = keyText(t.key, scope, params, `${t.path}/key`)
        return { columns: [{ expr: d.count(), alias: 'n' }, { expr: d.countDistinct(key), alias: 'k' }] }
      }),
      read: (row) => ({ rows: Number(row.n), keys: Number(row.k) })
    }),
    appointments: () => scanPlan(d, 'appointments', a, a.key.parts, `${a.path}/key`, (scope, params, cols) => {
      const id = keyReader(a.key, scope, cols, `${a.path}/key`)
      // Read as the lists read them (appointment.ts): a datetime, or a date and an hour.
      const startDate = (a.start.datetime ?? a.start.date) as Value
      const startRead = a.start.datetime ? { ...startDate, format: 'datetime' as const } : startDate
      const clock = storedClock(model)
      const date = dateOf(startRead, inClinicTime(valueReader(startDate, scope, cols), clock), a.start.datetime ? 'datetime' : 'date')
      const hourValue = (a.start.datetime ?? a.start.hour) as Value
      const hour = hourOf(a.start.datetime ? startRead : hourValue, inClinicTime(valueReader(hourValue, scope, cols), clock), a.start.datetime ? 'datetime' : 'text')
      // A plain state column is counted code by code in one statement (stateCodes); rules and templates here.
      const named = stateColumn !== undefined ? () => 'mapped' : textOf(valueReader(state, scope, cols, params))
      const refs = REFS.flatMap((k) => a.refs[k] ? [[k, idOf(valueReader(a.refs[k] as Value, scope, cols, params))] as const] : [])
      // The stored code beside the time, so check can weigh each code by where its rows fall (state-evidence.ts).
      const keyOf = stateColumn !== undefined ? codeMatcher(Object.keys(state.map ?? {}), codeRule(state)) : undefined
      const codeAt = stateColumn !== undefined ? cols.add(scope.ref(stateColumn, a.path)) : undefined
      return (row) => {
        const day = date(row)
        const at = hour(row)
        const out: AppointmentScanRow = { readable: day !== undefined && at !== undefined, unmappedState: named(row) === undefined, refs: {} }
        if (day !== undefined && at !== undefined) Object.assign(out, { day, hour: at })
        const code = keyOf && codeAt !== undefined ? keyOf(row[codeAt]) : undefined
        if (code !== undefined) out.code = code
        const rowId = id(row)
        if (rowId !== undefined) out.id = rowId
        for (const [k, read] of refs) {
          const ref = read(row)
          if (ref !== undefined) out.refs[k] = ref
        }
        return out
      }
    }),
    clients: () => scanPlan(d, 'clients', c, c.key.parts, `${c.path}/key`, (scope, params, cols) => {
      const id = keyReader(c.key, scope, cols, `${c.path}/key`)
      const phones = c.phones.map((p) => valuesReader(p, scope, cols, params))
      const birthdayValue = c.fields.birthday
      const cpfRaw = c.fields.cpf ? valueReader(c.fields.cpf, scope, cols, params) : undefined
      const birthdayRaw = birthdayValue ? valueReader(birthdayValue, scope, cols, params) : undefined
      const birthday = birthdayValue && birthdayRaw ? dateOf(birthdayValue, birthdayRaw) : undefined
      // The stored text itself, as the probes meet it in SQL (no nullIf, no trimming).
      const storedPhones = probedPhones.map((v) => ({ path: v.path, key: cols.add(scope.ref(v.column as string, `${v.path}/column`)), read: valuesReader(v, scope, cols, params) }))
      const storedCpf = probedCpf && { path: probedCpf.path, key: cols.add(scope.ref(probedCpf.column as string, `${probedCpf.path}/column`)), read: valueReader(probedCpf, scope, cols, params) }
      return (row) => {
        const out: ClientScanRow = { phones: phones.map((read) => read(row).filter((x) => !blank(x))), probed: [] }
        const rowId = id(row)
        if (rowId !== undefined) out.id = rowId
        const cpf = cpfRaw?.(row)
        if (cpf !== undefined && !blank(cpf)) {
          const digits = normaliseCpf(cpf)
          out.cpf = digits !== undefined && isValidCpf(digits)
        }
        if (birthdayRaw && birthday && !blank(birthdayRaw(row))) {
          const raw = birthdayRaw(row)
          out.birthday = birthday(row) !== undefined
          if (typeof raw === 'string') out.birthdayShape = textShape(raw)
          if (typeof raw === 'string' && birthdayValue.template !== undefined) {
            const padded = storedPadding(raw)
            if (padded !== undefined) out.birthdayPadded = padded
          }
        }
        for (const p of storedPhones) {
          for (const raw of p.read(row)) {
            const e164 = toE164(raw, model.phone)
            if (e164 !== undefined) out.probed.push({ path: p.path, stored: row[p.key], found: probesFind(row[p.key], phoneProbes(e164, model.phone), d.padsEquality) })
          }
        }
        if (storedCpf) {
          const digits = normaliseCpf(storedCpf.read(row))
          const stored = row[storedCpf.key]
          // A numeric column is compared as a number (cpfNumber): every readable value is found.
          if (digits !== undefined) out.probed.push({ path: storedCpf.path, stored, found: typeof stored !== 'string' || probesFind(stored, cpfProbes(digits), d.padsEquality) })
        }
        return out
      }
    }),
    probedColumns: [...probedPhones.map((v) => ({ path: v.path, kind: 'phone' as const })), ...(probedCpf ? [{ path: probedCpf.path, kind: 'CPF' as const }] : [])],
    schedules: scheduleScans(model, d),
    clientNamed: clientNamedPlans(model, d),
    slotRows: slotRowChecks(model, d),
    columnShapes: (t, column) => scanPlan(d, `${nameOf(t)}.${column}`, t, t.key.parts, `${t.path}/key`, (scope, _params, cols) => {
      const at = cols.add(scope.ref(column, `${t.path}/write`))
      return (row) => typeof row[at] === 'string' && !blank(row[at]) ? textShape(row[at] as string) : undefined
    })
  }
  const open = a.openSlots
  if (open) {
    plans.openSlots = () => ({
      statement: aggregate(`${nameOf(a)}.openSlots`, d, a, (scope, params) => ({ columns: [{ expr: d.count(), alias: 'n' }], where: [`${freeFlag(open, scope, params)} = 1`] })),
      read: (row) => Number(row.n)
    })
  }
  if (stateColumn !== undefined) {
    // Codes compare as the state's `map` compares them (codes.ts); exact ones are grouped
    // exactly too, or a case-insensitive column would count `b` and `B` as one.
    const rule = codeRule(state)
    const mapped = codeMatcher(Object.keys(state.map ?? {}), rule)
    plans.stateCodes = () => ({
      statement: aggregate(`${nameOf(a)}.codes`, d, a, (scope, params) => {
        const stored = scope.ref(stateColumn, a.path)
        const col = rule.exact ? d.exact(d.rtrim(stored)) : stored
        const key = scope.ref(a.key.column, a.path)
        // An open slot's code (`free`) is no appointment's state.
        const where = a.openSlots ? [`${freeFlag(a.openSlots, scope, params)} = 0`] : []
        return { columns: [{ expr: col, alias: 'code' }, { expr: d.count(), alias: 'n' }, { expr: d.min(key), alias: 'example' }], where, groupBy: [col] }
      }),
      read (row) {
        if (row.code === null || row.code === undefined) return undefined
        const code = String(row.code).trimEnd()
        if (mapped(code) !== undefined || (state.nullIf ?? []).some((s) => String(s) === code)) return undefined
        return { code, rows: Number(row.n), example: String(row.example) }
      }
    })
  }
  return plans
}

/** `7/3/1985` → false, `07/03/1985` → true, `12/11/1985` → undefined (nothing below 10 to tell by). */
function storedPadding (raw: string): boolean | undefined {
  const small = raw.split(/\D+/).filter((x) => x !== '' && x.length <= 2 && Number(x) < 10)
  if (small.length === 0) return undefined
  return small.every((x) => x.length === 2)
}
