// "Clínica Andina": a third, small legacy schema, generated here (deterministic: fixed dates,
// seeded randomness) for the schedule forms the two samples do not have:
// - working hours as dated rows whose start and end are datetimes (no date column);
// - three block sources: clinic holidays as datetimes (a whole day 00:00…23:59:00 and a half
//   day 12:00…18:00), professionals' absences as dates plus hour text, and a unit's closures
//   as datetimes scoped to a location (one crossing midnight);
// - rows of the appointment table that hold a slot without being an appointment (a blocked
//   row with no patient, a meeting told apart by its kind), whatever their state code;
// - lengths kept only as pattern strings, one character per 5 minutes ('//XX//' = 30 min),
//   for appointments and services;
// - a patient who is their own guarantor (a NOT NULL column holding the row's own key),
//   keys from a key table.
// December 2027: the clinic opens Saturday mornings, so Christmas Day (a Saturday) matters.
import type { Test } from 'tap'
import { randomness, addDays, hhmm, toDate } from '../../fixtures/generator-kit.js'
import { scratchInstallation, type Scratch } from './scratch.js'

export const FIRST_DAY = '2027-12-01'
export const LAST_DAY = '2027-12-31'

/** The blocks, as the tests expect them to act (independently of how the mapping says it). */
export const HOLIDAY = '2027-12-25' // whole day, everybody (00:00 … 23:59:00)
export const HALF_DAY = { date: '2027-12-24', from: '12:00', to: '18:00' } // everybody, the afternoon
export const ABSENCE = { professional: '1', from: '2027-12-06', to: '2027-12-08' } // whole days
export const PARTIAL_ABSENCE = { professional: '3', date: '2027-12-08', from: '14:00', to: '16:00' } // a Wednesday at unit 1
export const CLOSURE = { location: '2', from: '2027-12-13', to: '2027-12-14' } // unit 2, both days whole
export const NIGHT_CLOSURE = { location: '1', from: '2027-12-20 15:00', to: '2027-12-21 10:00' } // unit 1, across midnight
/** Slot-holding rows: [id, professional, date, hour, minutes]. */
export const HOLDING_ROWS: [number, string, string, string, number][] = [
  [9001, '1', '2027-12-02', '10:00', 30], // a blocked row: no patient
  [9002, '2', '2027-12-03', '10:00', 60] // a meeting: kind 'R', its state code says "cancelled"
]
export const PATTERN_MINUTES = 5

const pattern = (minutes: number): string => {
  const n = minutes / PATTERN_MINUTES
  // The legacy screen draws the edges as '/', the middle as 'X': every character is 5 minutes.
  return n <= 2 ? 'X'.repeat(n) : `/${'X'.repeat(n - 2)}/`
}

const q = (x: unknown): string => x === null ? 'NULL' : typeof x === 'number' ? String(x) : `'${String(x).replace(/'/g, "''")}'`
const insert = (table: string, rows: unknown[][]): string => rows.length === 0 ? '' : `INSERT INTO ${table} VALUES\n${rows.map((r) => `  (${r.map(q).join(', ')})`).join(',\n')};\n`

/** Who works where, by weekday (0 = Sunday): [professional, location, weekdays, from, to] in minutes. */
const HOURS: [string, string, number[], number, number][] = [
  ['1', '1', [1, 2, 3, 4, 5], 8 * 60, 12 * 60],
  ['1', '1', [1, 2, 3, 4, 5], 13 * 60, 17 * 60],
  ['2', '2', [1, 2, 3, 4, 5], 9 * 60, 13 * 60],
  ['2', '2', [6], 8 * 60, 12 * 60],
  ['3', '1', [1, 3, 5], 14 * 60, 18 * 60],
  ['3', '2', [2, 4], 8 * 60, 12 * 60]
]

export function schedulesSql (): string {
  const { int, chance, pick } = randomness(0xA9D1)
  const days: string[] = []
  for (let d = FIRST_DAY; d <= LAST_DAY; d = addDays(d, 1)) days.push(d)

  const shifts: unknown[][] = []
  for (const day of days) {
    const dow = toDate(day).getUTCDay()
    for (const [p, l, weekdays, from, to] of HOURS) {
      if (weekdays.includes(dow)) shifts.push([Number(p), Number(l), `${day} ${hhmm(from)}:00`, `${day} ${hhmm(to)}:00`])
    }
  }

  const patients: unknown[][] = []
  for (let i = 1; i <= 12; i++) {
    // Most patients are their own guarantor; children hang from a parent.
    const guarantor = i > 8 ? i - 8 : i
    patients.push([i, `Paciente ${String(i).padStart(2, '0')}`, `+5491155${String(500000 + i * 37).padStart(6, '0')}`, guarantor])
  }

  // Patient appointments on a few mornings, 30 or 45 minutes, inside the hours, none overlapping.
  const appointments: unknown[][] = []
  let id = 1
  for (const day of days) {
    const dow = toDate(day).getUTCDay()
    if (dow === 0 || dow === 6 || !chance(0.4)) continue
    const minutes = pick([30, 45])
    const hour = 8 * 60 + int(0, 2) * 30 // ends by 09:45: clear of the slot-holding rows
    appointments.push([id++, int(1, 12), 1, 1, `${day} ${hhmm(hour)}:00`, pattern(minutes), pick([0, 1, 2]), 'A', minutes === 45 ? 2 : 1])
  }
  for (const [rowId, p, date, hour, minutes] of HOLDING_ROWS) {
    const location = p === '2' ? 2 : 1
    appointments.push(rowId === 9001
      ? [rowId, null, Number(p), location, `${date} ${hour}:00`, pattern(minutes), 0, 'A', null]
      : [rowId, null, Number(p), location, `${date} ${hour}:00`, pattern(minutes), 2, 'R', null])
  }

  return `
CREATE TABLE PROFESIONAL (ID_PROF INTEGER PRIMARY KEY, NOMBRE TEXT NOT NULL, ACTIVO CHAR(1) NOT NULL);
CREATE TABLE SEDE (ID_SEDE INTEGER PRIMARY KEY, NOMBRE TEXT NOT NULL, DIRECCION TEXT NOT NULL);
CREATE TABLE PROF_SEDE (ID_PROF INTEGER NOT NULL, ID_SEDE INTEGER NOT NULL);
CREATE TABLE PRESTACION (ID_PREST INTEGER PRIMARY KEY, NOMBRE TEXT NOT NULL, PATRON VARCHAR(24) NOT NULL);
CREATE TABLE PROF_PREST (ID_PROF INTEGER NOT NULL, ID_PREST INTEGER NOT NULL);
CREATE TABLE SECUENCIA (TABLA VARCHAR(20) PRIMARY KEY, ULTIMO INTEGER NOT NULL);
CREATE TABLE PACIENTE (ID_PAC INTEGER PRIMARY KEY, NOMBRE TEXT NOT NULL, TELEFONO TEXT, ID_GARANTE INTEGER NOT NULL);
CREATE TABLE HORARIO (ID_PROF INTEGER NOT NULL, ID_SEDE INTEGER NOT NULL, INICIO DATETIME NOT NULL, FIN DATETIME NOT NULL);
CREATE INDEX HORARIO_INICIO ON HORARIO (INICIO);
CREATE TABLE FERIADO (DESDE DATETIME NOT NULL, HASTA DATETIME NOT NULL, MOTIVO TEXT);
CREATE TABLE AUSENCIA (ID_PROF INTEGER NOT NULL, DESDE DATE NOT NULL, HASTA DATE, HORA_DESDE CHAR(5), HORA_HASTA CHAR(5));
CREATE TABLE CIERRE_SEDE (ID_SEDE INTEGER NOT NULL, DESDE DATETIME NOT NULL, HASTA DATETIME NOT NULL);
CREATE TABLE CITA (ID_CITA INTEGER PRIMARY KEY AUTOINCREMENT, ID_PAC INTEGER, ID_PROF INTEGER NOT NULL, ID_SEDE INTEGER NOT NULL,
  INICIO DATETIME NOT NULL, PATRON VARCHAR(24) NOT NULL, ESTADO INTEGER NOT NULL, TIPO CHAR(1) NOT NULL, ID_PREST INTEGER);
CREATE INDEX CITA_INICIO ON CITA (INICIO);
${insert('PROFESIONAL', [[1, 'Dra. Inés Quispe', 'S'], [2, 'Dr. Mateo Rojas', 'S'], [3, 'Dra. Lucía Paz', 'S']])}
${insert('SEDE', [[1, 'Sede Centro', 'Av. Arequipa 1020'], [2, 'Sede Miraflores', 'Calle Schell 315']])}
${insert('PROF_SEDE', [[1, 1], [2, 2], [3, 1], [3, 2]])}
${insert('PRESTACION', [[1, 'Consulta', pattern(30)], [2, 'Limpieza', pattern(45)], [3, 'Control', pattern(15)]])}
${insert('PROF_PREST', [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [3, 1], [3, 3]])}
${insert('SECUENCIA', [['PACIENTE', 12]])}
${insert('PACIENTE', patients)}
${insert('HORARIO', shifts)}
${insert('FERIADO', [
    [`${HOLIDAY} 00:00:00`, `${HOLIDAY} 23:59:00`, 'Navidad'],
    [`${HALF_DAY.date} ${HALF_DAY.from}:00`, `${HALF_DAY.date} ${HALF_DAY.to}:00`, 'Nochebuena (tarde)']
  ])}
${insert('AUSENCIA', [
    [Number(ABSENCE.professional), ABSENCE.from, ABSENCE.to, null, null],
    [Number(PARTIAL_ABSENCE.professional), PARTIAL_ABSENCE.date, null, PARTIAL_ABSENCE.from, PARTIAL_ABSENCE.to]
  ])}
${insert('CIERRE_SEDE', [
    [Number(CLOSURE.location), `${CLOSURE.from} 00:00:00`, `${CLOSURE.to} 23:59:00`],
    [Number(NIGHT_CLOSURE.location), `${NIGHT_CLOSURE.from}:00`, `${NIGHT_CLOSURE.to}:00`]
  ])}
${insert('CITA', appointments)}
`
}

export const SCHEDULES_MAPPING = `
version: 1
installation: clinica-andina
timezone: America/Lima
phone: { defaultCountry: PE }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: CITA
    key: ID_CITA
    start: { datetime: { column: INICIO, format: datetime } }
    end:
      duration: { sql: { sqlite: 'LENGTH(RTRIM({PATRON})) * 5', mssql: 'LEN({PATRON}) * 5' } }
    state: { column: ESTADO, type: int, map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED } }
    slotHolding:                                       # blocked rows and meetings: time taken, not appointments
      any: [{ column: ID_PAC, isNull: true }, { column: TIPO, in: [B, R] }]
    refs:
      client: ID_PAC
      professional: ID_PROF
      location: ID_SEDE
      service: ID_PREST
    write:
      key: { generate: identity }
      set:
        TIPO: { value: 'A' }
        PATRON: { slot: length, repeat: 'X', per: 5, edges: '/' }   # written as the legacy screen draws it
  client:
    table: PACIENTE
    key: ID_PAC
    fields: { name: NOMBRE }
    phones: [TELEFONO]
    write:
      key: { generate: keyTable, table: SECUENCIA, nameColumn: TABLA, name: PACIENTE, valueColumn: ULTIMO }
      set:
        ID_GARANTE: { newKey: true }
  professional:
    table: PROFESIONAL
    key: ID_PROF
    fields: { name: NOMBRE }
    enabled: { column: ACTIVO, trueValues: ['S'] }
  location:
    table: SEDE
    key: ID_SEDE
    fields: { name: NOMBRE, address: DIRECCION }
  service:
    table: PRESTACION
    key: ID_PREST
    fields:
      name: NOMBRE
      duration: { sql: { sqlite: 'LENGTH(RTRIM({PATRON})) * 5', mssql: 'LEN({PATRON}) * 5' } }
relations:
  - between: [professional, location]
    table: PROF_SEDE
    columns: { professional: ID_PROF, location: ID_SEDE }
  - between: [professional, service]
    table: PROF_PREST
    columns: { professional: ID_PROF, service: ID_PREST }
availability:
  slotMinutes: 30
  dated:
    table: HORARIO
    professional: ID_PROF
    location: ID_SEDE
    start: { column: INICIO, format: datetime }
    end: { column: FIN, format: datetime }
  blocks:
    - table: FERIADO                                   # everybody
      from: { column: DESDE, format: datetime }
      to: { column: HASTA, format: datetime }
    - table: AUSENCIA                                  # one professional, whole days or hours
      professional: ID_PROF
      from: { column: DESDE, format: date }
      to: { column: HASTA, format: date }
      start: { column: HORA_DESDE, format: text }
      end: { column: HORA_HASTA, format: text }
    - table: CIERRE_SEDE                               # a unit closed: everybody there
      location: ID_SEDE
      from: { column: DESDE, format: datetime }
      to: { column: HASTA, format: datetime }
`

/** The installation, fresh for one test. */
export async function schedulesInstallation (t: Test, mapping = SCHEDULES_MAPPING): Promise<Scratch> {
  return await scratchInstallation(t, schedulesSql(), mapping)
}
