// Reading appointments: validate the range, bind typed filters, run one statement, and
// nest lookups from the catalogue (never one query per row).
import { servedFrom, type Arrival, type Database } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import { NESTED_REFS, type AppointmentFilter, type CompiledAppointments, type AppointmentInput, type AppointmentRow, type Bound } from '../mapping/compile/index.js'
import type { AppointmentT } from '../schemas/resources.js'
import { queryDateRange } from './date-range.js'
import { InvalidInputError, NotFoundError, unknownId } from '../errors.js'
import type { Catalog } from './catalog.js'
import type { Lookups } from './lookups.js'
import { carryingId } from './ids.js'
import { streamList } from './list-stream.js'
import { holdingAtMost } from './read-ahead.js'
import { inTurns, TURN_ROWS } from './turns.js'
import { isOpenRow } from './open-slots.js'
import type { Readable } from 'node:stream'
import type { LookupName } from '../mapping/model.js'

export interface AppointmentQuery {
  start: string
  end: string
  location?: string
  service?: string
  professional?: string
  client?: string
  state?: string
  minimal?: boolean
}

export interface AppointmentLimits {
  maxRangeDays: number
  /** How long a streamed list may hold its connection at its client's pace (read-ahead.ts). */
  streamHoldMs?: number
}

const ID_FILTERS = ['location', 'service', 'professional', 'client'] as const

type IdFilter = typeof ID_FILTERS[number]

export class Appointments {
  private byIdShape: CompiledAppointments | undefined

  constructor (
    private readonly compiled: CompiledMapping,
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly lookups: Lookups,
    private readonly limits: AppointmentLimits
  ) {}

  async list (q: AppointmentQuery, at: Arrival): Promise<AppointmentT[]> {
    const query = this.listQuery(q)
    if (!query) return []
    let found = await this.read(query.shape, query.bound, at)
    for (const [f, id] of query.ids) found = carryingId(found, id, (a) => a.refs[f])
    return await this.present(found, query.minimal, at)
  }

  /**
   * The list as `list` answers it, or, when the database streams and the list is longer than
   * what the first blocks hold, a stream of exactly the same JSON text (list-stream.ts). Either
   * way, what could fail before the first byte (the range, the statement, the first blocks) has
   * failed here, so the caller still answers a problem with its status.
   */
  async listOrStream (q: AppointmentQuery, at: Arrival): Promise<AppointmentT[] | Readable> {
    const query = this.listQuery(q)
    if (!query) return []
    const stream = this.db.stream
    // One day (the busiest: ~1,000 items) is read whole as before: in blocks it cost ~13 % more
    // CPU (two round trips to the SQLite thread instead of one), for no memory worth saving.
    if (!stream || query.oneDay || !this.inCalendarOrder) return await this.list(q, at)
    // The catalogue first: loading it needs the connection the stream is about to hold.
    const snap = query.minimal ? undefined : await this.catalog.snapshot(at)
    // A day's items in one JSON.stringify (its brackets cut off): the same bytes as one call per
    // item, and measurably less CPU over a month of them.
    const items = (day: AppointmentRow[]): string => JSON.stringify(snap ? day.map((a) => this.nest(a, snap)) : day.map(strip)).slice(1, -1)
    const keep = (a: AppointmentRow): boolean => query.ids.every(([f, id]) => a.refs[f] === id)
    // A slow client must not hold the connection at its pace (read-ahead.ts).
    const blocks = holdingAtMost(stream.call(this.db, query.bound.statement, query.bound.args, at), this.limits.streamHoldMs)
    return await streamList(blocks, query.shape.read, keep, items, async (found) => await this.present(found, query.minimal, at))
  }

  /**
   * Whether the statement's order (the stored start, then hour, then key) brings each day's rows
   * together in calendar order, as streaming needs (list-stream.ts): not for `DD/MM/YYYY` text.
   */
  private get inCalendarOrder (): boolean {
    const start = this.compiled.model.appointment.start
    return (start.datetime ?? start.date)?.format !== 'dmy'
  }

  /** What a list request reads: undefined when no appointment can match (an id filter the mapping or its column cannot hold). */
  private listQuery (q: AppointmentQuery): { shape: CompiledAppointments, bound: Bound, ids: [IdFilter, string][], minimal: boolean, oneDay: boolean } | undefined {
    const { timezone, states, appointment } = this.compiled.model
    const { start, end } = queryDateRange(q, timezone, this.limits.maxRangeDays)
    const state = q.state === undefined ? undefined : stateName(q.state, states.values, '/querystring/state')
    const ids: [IdFilter, string][] = []
    for (const f of ID_FILTERS) {
      const id = q[f]
      if (id === undefined) continue
      // A relation the mapping does not hold: no appointment can have it.
      if (!appointment.refs[f]) return undefined
      ids.push([f, id])
    }
    const filters: AppointmentFilter[] = ids.map(([f]) => f)
    const input: AppointmentInput = { from: start, to: end, ...Object.fromEntries(ids) }
    if (state !== undefined) { filters.push('state'); input.state = state }
    const minimal = q.minimal === true
    const shape = this.compiled.appointments({ filters, minimal })
    const bound = shape.bind(input)
    if (!bound) return undefined
    return { shape, bound, ids, minimal, oneDay: start === end }
  }

  /**
   * Every appointment from `from` to `to` (clinic dates), each as `get` answers it, read with
   * the list's one range statement and no range limit: what a change-detection poll compares.
   */
  async between (from: string, to: string, at: Arrival): Promise<AppointmentT[]> {
    const shape = this.compiled.appointments({ filters: [], minimal: false })
    return await this.present(await this.read(shape, shape.bind({ from, to }), at), false, at)
  }

  /** How many appointments `between` would read over the same days (one COUNT: what a window pass costs). */
  async countBetween (from: string, to: string, at: Arrival): Promise<number> {
    const plan = this.compiled.changes?.windowCount
    const bound = plan?.bind({ from, to })
    if (!plan || !bound) return 0
    const [row] = await this.db.query(bound.statement, bound.args, at)
    return row === undefined ? 0 : plan.read(row)
  }

  /**
   * Appointments whose change marker is at or past `after`, as `get` answers them, and the
   * newest marker among them (`after` itself when none): what a marker pass compares.
   */
  async markedSince (after: string, at: Arrival): Promise<{ appointments: AppointmentT[], last: string }> {
    const shape = this.compiled.changes?.marked
    if (!shape) return { appointments: [], last: after }
    const found = await this.read(shape, shape.bind({ after }), at)
    // Read in marker order: the last row read holds the newest marker.
    const last = found.reduce<string>((m, a) => a.marker ?? m, after)
    for (const a of found) delete a.marker
    return { appointments: await this.present(found, false, at), last }
  }

  /** The newest change marker in the table (undefined when the table is empty or no marker is mapped). */
  async lastMarker (at: Arrival): Promise<string | undefined> {
    const plan = this.compiled.changes?.lastMarker
    if (!plan) return undefined
    const [row] = await this.db.query(plan.statement, {}, at)
    return row === undefined ? undefined : plan.read(row)
  }

  /** Whether `id` is an open slot's free row now (`openSlots`): a released claim, not an appointment. */
  async isOpenSlot (id: string, at: Arrival): Promise<boolean> {
    return await isOpenRow(servedFrom(this.db, at), this.compiled, id)
  }

  /** The appointment as `get` answers it, or undefined where there is none. */
  async find (id: string, at: Arrival): Promise<AppointmentT | undefined> {
    try {
      return await this.get(id, at)
    } catch (err) {
      if (err instanceof NotFoundError) return undefined
      throw err
    }
  }

  async get (id: string, at: Arrival): Promise<AppointmentT> {
    // Compiled once per mapping (the compiler keeps it): named here once, not on every request.
    const shape = this.byIdShape ??= this.compiled.appointments({ filters: [], minimal: false, byId: true })
    const [found] = carryingId(await this.read(shape, shape.bind({ id }), at), id, (a) => a.id)
    if (!found) throw unknownId('appointment', id)
    return this.nest(found, this.catalog.fresh() ?? await this.catalog.snapshot(at))
  }

  /** An appointment row already read by id (a write's read-back in its transaction), answered as `get` answers it. */
  async answer (found: AppointmentRow, at: Arrival): Promise<AppointmentT> {
    return this.nest(found, await this.catalog.snapshot(at))
  }

  /** No bound statement: no row can match (an id its column cannot hold). */
  private async read (shape: { read: (row: Record<string, unknown>) => AppointmentRow | undefined }, bound: Bound | undefined, at: Arrival): Promise<AppointmentRow[]> {
    if (!bound) return []
    const rows = await this.db.query(bound.statement, bound.args, at)
    const found: AppointmentRow[] = []
    const each = (row: Record<string, unknown>): void => {
      const a = shape.read(row)
      if (a !== undefined) found.push(a)
    }
    // Fewer rows than a turn's worth (one by id) never yield: read them without inTurns' promise.
    if (rows.length <= TURN_ROWS) for (const row of rows) each(row)
    else await inTurns(rows, each)
    return found
  }

  private async present (found: AppointmentRow[], minimal: boolean, at: Arrival): Promise<AppointmentT[]> {
    // The SQL orders by the legacy columns, and a text hour column sorts '8:30 ' after '09:00':
    // order again on the normalised date and hour (stable, so ties keep the SQL's key order).
    found.sort(byDateAndHour)
    if (minimal) return found.map(strip)
    const snap = await this.catalog.snapshot(at)
    const out = new Array<AppointmentT>(found.length)
    await inTurns(found, (a, i) => { out[i] = this.nest(a, snap) })
    // Serialised whole by JSON.stringify (the route's serializer), shared entities included:
    // on the busy day (1,003 items, 934 KB) 26–29 ms of CPU a request fell to 18–20 ms against
    // splicing each item's text with its entities' cached JSON and joining the items.
    return out
  }

  /** The appointment in its final key order, the catalogue's entities nested as they are (never copied). */
  private nest (a: AppointmentRow, snap: Awaited<ReturnType<Catalog['snapshot']>>): AppointmentT {
    const out = strip(a)
    if (a.client) out.client = a.client
    for (const name of NESTED_REFS) {
      const entity = this.lookups.nested(snap, name as LookupName, a.refs[name])
      if (entity) (out as Record<string, unknown>)[name] = entity
    }
    return out
  }
}

/** The list's order: normalised date, then hour (Array.prototype.sort is stable: ties keep the SQL's order). */
export function byDateAndHour (x: { date: string, hour: string }, y: { date: string, hour: string }): number {
  return x.date < y.date ? -1 : x.date > y.date ? 1 : x.hour < y.hour ? -1 : x.hour > y.hour ? 1 : 0
}

function strip (a: AppointmentRow): AppointmentT {
  const out: AppointmentT = { id: a.id, date: a.date, hour: a.hour, state: a.state }
  if (a.endHour !== undefined) out.endHour = a.endHour
  if (a.classification !== undefined) out.classification = a.classification
  return out
}

/** A state of the installation's vocabulary, spelt exactly ('confirmed' is refused, never guessed at); else 400. */
export function stateName (input: string, values: string[], path: string): string {
  if (!values.includes(input)) throw new InvalidInputError(`Unknown state "${input}".`, [{ path, message: `must be one of ${values.join(', ')}, spelt exactly` }])
  return input
}
