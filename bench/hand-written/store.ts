// What the hand-written baseline asks of its database, one method a request (one statement
// each, bookings aside), so that its routes (bench/hand-written.ts) are the same on SQLite
// (sqlite.ts, synchronous better-sqlite3) and on MariaDB/PostgreSQL (network.ts, mysql2/pg).
// Methods may answer synchronously: the SQLite baseline keeps its one synchronous transaction.

export type Row = Record<string, any>
type Maybe<T> = T | Promise<T>

/** The rows the cached lookups are built from, each table as its own query returns it. */
export interface LookupRows {
  specialties: Row[]
  profSpecialties: Row[]
  professionals: Row[]
  locations: Row[]
  services: Row[]
  insurances: Row[]
  profServices: Row[]
  roomOfUnit: Row[]
  profUnits: Row[]
  enabledProfessionals: Row[]
}

export interface Booking { date: string, hour: string, client: number, professional: number, unit: number, room: number }

export interface BaselineStore {
  lookupRows: () => Maybe<LookupRows>
  range: (start: string, end: string) => Maybe<Row[]>
  rangeOfProfessional: (start: string, end: string, professional: number) => Maybe<Row[]>
  minimalRange: (start: string, end: string) => Maybe<Row[]>
  byId: (id: number) => Maybe<Row | undefined>
  /** Clients whose phone columns hold one of the spellings (probeParams). */
  searchPhone: (probes: PhoneProbes) => Maybe<Row[]>
  /** Checks and writes in one transaction: the new id, or why not ('taken' is a 409). */
  book: (b: Booking) => Maybe<number | string>
  statements: () => number
  close: () => Maybe<void>
}

/** A number's stored spellings: whole values, and prefix ranges [low, high) for values with an extension after them. */
export interface PhoneProbes { exact: string[], ranges: [string, string][] }

export const minutes = (h: string): number => { const [a, b] = h.trim().split(':'); return Number(a) * 60 + Number(b) }
export const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
/** Wall-clock now in the clinic's zone, 'YYYY-MM-DD HH:MM:SS', as the legacy columns hold it. */
const CLINIC_CLOCK = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
export const localNow = (): string => CLINIC_CLOCK.format(new Date())
/** HORARIO's day of the week for a date (1 = Sunday, as the legacy system counts). */
export const weekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay() + 1

/** The working window of the professional's hours that day holding the start, at the unit, on its step. */
export function windowFor (hours: Row[], b: Booking): Row | undefined {
  const start = minutes(b.hour)
  return hours.find((h) => h.ID_UNIDADE === b.unit && minutes(h.HORA_INICIO) <= start && start + h.INTERVALO <= minutes(h.HORA_FIM) && (start - minutes(h.HORA_INICIO)) % h.INTERVALO === 0)
}

/** Whether one of the day's appointments (HORA, DURACAO) overlaps [start, end). */
export function overlaps (day: Row[], start: number, end: number, interval: number): boolean {
  return day.some((a) => {
    const s = minutes(a.HORA)
    const e = s + (a.DURACAO > 0 ? a.DURACAO : interval)
    return s < end && start < e
  })
}
