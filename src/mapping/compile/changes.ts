// What change detection reads beyond the list's range statement: the window counted (what a
// poll costs, for `ponte check`), and with a marker the rows past the last one seen and the
// newest marker there is (where a whole-window pass starts the marker from).
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import type { MappingModel } from '../model.js'
import type { AppointmentShape, CompiledAppointments } from './appointment.js'
import type { Bound, DateRange } from './bind.js'
import type { Row } from './entity.js'
import { ParamList } from '../../sql/statement.js'
import { Scope } from './scope.js'
import { keyArgs, keyMatch } from './key.js'

export interface CompiledChanges {
  /** The appointments a whole-window pass reads, counted with the same conditions. */
  windowCount: { statement: Statement, bind: (range: DateRange) => Bound | undefined, read: (row: Row) => number }
  /** Rows whose marker is at or past `after`, read as the list reads them (`marker` set on each). */
  marked?: CompiledAppointments
  /** The newest marker in the table (undefined when it is empty). */
  lastMarker?: { statement: Statement, read: (row: Row) => string | undefined }
  /**
   * An update of the state column alone, as the desk program makes it (`ponte check` runs it
   * rolled back and sees whether the marker moved): where the state is a column of the
   * appointment's own table with at least two stored codes.
   */
  touch?: { statement: Statement, codes: Record<string, string>, bind: (id: string, code: string) => Bound | undefined }
}

export function compileChanges (model: MappingModel, dialect: Dialect, appointments: (shape: AppointmentShape) => CompiledAppointments): CompiledChanges | undefined {
  const m = model.appointment
  if (m.changes === undefined) return undefined
  const count = appointments({ filters: [], minimal: true, count: true })
  const out: CompiledChanges = {
    windowCount: { statement: count.statement, bind: (range) => count.bind(range), read: (row) => Number(row.n) }
  }
  const marker = m.changes.marker
  if (marker === undefined) return out
  const scope = new Scope(dialect, m, 't')
  const col = scope.ref(marker.column, `${marker.path}/column`, 'read')
  out.marked = appointments({ filters: [], minimal: false, marked: true })
  out.lastMarker = {
    statement: {
      name: 'appointment.lastMarker',
      sql: dialect.select({ columns: [{ expr: dialect.markerText(dialect.max(col), marker.type), alias: 'm' }], from: { table: dialect.table(m.table), alias: 't' }, joins: [], where: [], orderBy: [] }),
      params: []
    },
    read: (row) => row.m == null ? undefined : String(row.m)
  }
  out.touch = stateTouch(model, dialect)
  return out
}

function stateTouch (model: MappingModel, dialect: Dialect): CompiledChanges['touch'] {
  const m = model.appointment
  const column = m.state.column
  const codes = Object.fromEntries(Object.entries(m.state.map ?? {}).map(([code, state]) => [code, String(state)]))
  if (column === undefined || column.includes('.') || Object.keys(codes).length < 2) return undefined
  const scope = new Scope(dialect, m, 't')
  const params = new ParamList(dialect)
  const set = { column, value: params.input('code', m.state.type ?? 'text') }
  const sql = dialect.update(m.table, 't', [set], [keyMatch(m.key, scope, params, `${m.path}/key`)])
  const statement: Statement = { name: 'appointment.markerTouch', sql, params: params.params, writes: m.table }
  return {
    statement,
    codes,
    bind: (id, code) => {
      const args = keyArgs(m.key, id)
      return args && { statement, args: { ...args, code: m.state.type !== undefined && m.state.type !== 'text' && /^-?\d+$/.test(code) ? Number(code) : code } }
    }
  }
}
