// The plans `ponte check` reads the stored data with (scan.ts says how): keys that repeat,
// joins that multiply rows, state codes, and every appointment, client and schedule row read
// as the server reads them. Each plan is compiled when check asks for it: a mapping whose
// catalog pass failed never has its scans built.
import type { Dialect } from '../../sql/dialect.js'
import type { MappingModel, TableModel, Value } from '../model.js'
import { scheduleScans, type ScheduleScan } from './availability.js'
import { dateOf, hourOf, idOf, textOf } from './decode.js'
import { keyReader, keyText } from './key.js'
import { aggregate, scanPlan, type ReadPlan, type ScanPlan } from './scan.js'
import { slotChecks, type SlotChecks } from './slot-booking.js'
import { valueReader, valuesReader } from './value.js'
import { probes } from './client.js'
import { phoneProbes, probesFind, toE164 } from '../../normalise/phone.js'
import { cpfProbes, normaliseCpf } from '../../normalise/cpf.js'

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
}

export interface ClientScanRow {
  id?: string
  /** Every phone the row holds, as stored (blanks left out). */
  phones: unknown[]
  /** Whether the stored birthday reads as a date; absent when none is stored. */
  birthday?: boolean
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
  slots?: SlotChecks
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
        if (join) scope.ref(`${join}.${Object.values(t.joins[join].on)[0] ?? 'x'}`, t.path)
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
      const date = dateOf(startRead, valueReader(startDate, scope, cols), a.start.datetime ? 'datetime' : 'date')
      const hourValue = (a.start.datetime ?? a.start.hour) as Value
      const hour = hourOf(a.start.datetime ? startRead : hourValue, valueReader(hourValue, scope, cols), a.start.datetime ? 'datetime' : 'text')
      // A plain state column is counted code by code in one statement (stateCodes); rules and templates here.
      const named = stateColumn !== undefined ? () => 'mapped' : textOf(valueReader(state, scope, cols, params))
      const refs = REFS.flatMap((k) => a.refs[k] ? [[k, idOf(valueReader(a.refs[k] as Value, scope, cols, params))] as const] : [])
      return (row) => {
        const out: AppointmentScanRow = { readable: date(row) !== undefined && hour(row) !== undefined, unmappedState: named(row) === undefined, refs: {} }
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
      const birthdayRaw = birthdayValue ? valueReader(birthdayValue, scope, cols, params) : undefined
      const birthday = birthdayValue && birthdayRaw ? dateOf(birthdayValue, birthdayRaw) : undefined
      // The stored text itself, as the probes meet it in SQL (no nullIf, no trimming).
      const storedPhones = probedPhones.map((v) => ({ path: v.path, key: cols.add(scope.ref(v.column as string, `${v.path}/column`)), read: valuesReader(v, scope, cols, params) }))
      const storedCpf = probedCpf && { path: probedCpf.path, key: cols.add(scope.ref(probedCpf.column as string, `${probedCpf.path}/column`)), read: valueReader(probedCpf, scope, cols, params) }
      return (row) => {
        const out: ClientScanRow = { phones: phones.flatMap((read) => read(row)).filter((x) => !blank(x)), probed: [] }
        const rowId = id(row)
        if (rowId !== undefined) out.id = rowId
        if (birthdayRaw && birthday && !blank(birthdayRaw(row))) out.birthday = birthday(row) !== undefined
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
    slots: slotChecks(model, d)
  }
  if (stateColumn !== undefined) {
    // Codes compare as the state's `map` compares them: trailing spaces and case aside.
    const mapped = new Set(Object.keys(state.map ?? {}).map((k) => k.trimEnd().toUpperCase()))
    plans.stateCodes = () => ({
      statement: aggregate(`${nameOf(a)}.codes`, d, a, (scope) => {
        const col = scope.ref(stateColumn, a.path)
        const key = scope.ref(a.key.column, a.path)
        return { columns: [{ expr: col, alias: 'code' }, { expr: d.count(), alias: 'n' }, { expr: d.min(key), alias: 'example' }], groupBy: [col] }
      }),
      read (row) {
        if (row.code === null || row.code === undefined) return undefined
        const code = String(row.code).trimEnd()
        if (mapped.has(code.toUpperCase()) || (state.nullIf ?? []).some((s) => String(s) === code)) return undefined
        return { code, rows: Number(row.n), example: String(row.example) }
      }
    })
  }
  return plans
}
