// `ponte check` proves each write path by performing it: POST /clients with every field the
// mapping writes, PATCH /clients of each field, POST /appointments with every ref and with the
// professional alone, PATCH …/state to each state, PATCH …/time — the server's own services,
// read-back invariant included, each inside one transaction that is rolled back. Then the row
// is read as stored, by its key in the mapped table, and every column compared with what the
// mapping says the write puts there. A difference is a problem at the mapping line that writes it.
import type { Database } from '../db/database.js'
import type { DeclaredReference, LiveCatalog } from '../db/columns.js'
import { ownerColumn } from './owned-joins.js'
import { clientOwn, type ClientOwn } from './client-owned.js'
import { BOOKING_REFS, CLAIMED_REFS, bindId, hoursColumns, isNewKey, isUnsupported, storedPhoneRow, storedRow, type AppointmentWritePlans, type BookingRef, type ClientField, type ClientWritePlans, type CompiledMapping, type FieldWriter, type BookedTime } from '../mapping/compile/index.js'
import type { AppointmentModel, ClientModel, TableModel } from '../mapping/model.js'
import { parsePhoneInput } from '../normalise/phone.js'
import { endMinutesOf, minutesOf } from '../normalise/datetime.js'
import { ConflictError, InvalidInputError, MisfitMappingValueError, NotWritableError, NonTransactionalError, DatabaseUnavailableError } from '../errors.js'
import type { AppointmentT } from '../schemas/resources.js'
import { Catalog } from '../services/catalog.js'
import { Clients } from '../services/clients.js'
import { Lookups } from '../services/lookups.js'
import { Appointments } from '../services/appointments.js'
import { Availability } from '../services/availability.js'
import { ClientWrites } from '../services/client-writes.js'
import { Booking } from '../services/booking.js'
import { bookedRecords } from '../services/booked.js'
import { coveringHours } from '../services/covering-hours.js'
import { MISSTORED, REQUIRED_BY_INSTALLATION } from '../services/stored.js'
import { inRolledBack, type Schema } from './rolled-back.js'
import { clientValues, freeSlots, PATCH_VALUES, refFor, type ProbeSlot } from './probe-values.js'
import { differences, steady, type Columns } from './stored-compare.js'
import { explain } from './probes.js'
import { refusedAsReadOnly } from './read-only.js'
import type { Findings } from './findings.js'
import { storedSpellings, unlikeStored, type Spellings } from './stored-spellings.js'
import { comparedLeftRow, comparedStamps } from './change-rows.js'

/** Why a path was not proven; reported by the caller in one place. */
class NotProven extends Error {}

/** A path's run; `attempt` (from 0) picks another client and time after a clash with the clinic's own bookings. */
type Path = (db: Database, attempt: number) => Promise<string>

// Clashes are the data's, not the mapping's: a move is tried with this many client/time pairs.
const MOVE_ATTEMPTS = 12
const MOVE_CLIENTS = 3

export async function probeWrites (compiled: CompiledMapping, db: Database, catalog: LiveCatalog, today: string, out: Findings, references: readonly DeclaredReference[] = []): Promise<void> {
  const { model } = compiled
  const schema: Schema = { catalog }
  const paths: { place: string, what: string, run: Path, needsBooking?: boolean, attempts?: number, optionalRefs?: boolean }[] = []
  const client = compiled.writes.client
  // Read before any write: the clinic's own spelling of text birthdays, which a write must keep.
  const spellings = isUnsupported(client) ? undefined : await storedSpellings(compiled, db)
  if (!isUnsupported(client) && !isUnsupported(client.insert)) {
    paths.push({ place: `${model.client.path}/write`, what: 'POST /clients', run: async (db) => await createClient(compiled, client, db, catalog, spellings) })
  }
  if (!isUnsupported(client)) {
    for (const field of PATCH_FIELDS) {
      if (!client.writers[field] && !client.rowWriters[field]) continue
      paths.push({ place: `${model.client.path}/write`, what: `PATCH /clients ${field}`, run: async (db) => await patchClient(compiled, client, field, db, catalog, spellings) })
    }
  }
  const appointment = compiled.writes.appointment
  // Moves start from a booking with the professional only, as callers and the desk book (a move
  // must handle the refs left empty), unless that booking showed the database requires more.
  const moves = { everyRef: false }
  if (!isUnsupported(appointment) && !isUnsupported(appointment.insert)) {
    const a = appointment
    const owners = ownersOf(compiled, a, catalog, references)
    paths.push({ place: `${model.appointment.path}/write`, what: 'POST /appointments with every ref', run: async (db) => (await book(compiled, a, db, catalog, today, true, owners)).said })
    paths.push({ place: `${model.appointment.path}/write`, what: 'POST /appointments with the professional only', optionalRefs: true, run: async (db) => (await book(compiled, a, db, catalog, today, false, owners)).said })
    for (const state of model.states.values) {
      if (state === model.states.initial || isUnsupported(a.stateMoves[state])) continue
      paths.push({ place: `${model.appointment.path}/write/states/${state}`, what: `PATCH …/state ${state}`, needsBooking: true, run: async (db) => await moveState(compiled, a, db, catalog, today, state, moves.everyRef, owners) })
    }
    paths.push({ place: `${model.appointment.path}/write`, what: 'PATCH …/time', needsBooking: true, attempts: MOVE_ATTEMPTS, run: async (db, attempt) => await reschedule(compiled, a, db, catalog, today, attempt, moves.everyRef, owners) })
  }
  // Earlier problems (a missing column, a wrong format) would fail every path again: said once is enough.
  if (out.problems.length > 0) {
    if (paths.length > 0) out.notProven('', 'writes not proven: correct the problems above first (the write probe runs on a mapping without them)')
    return
  }
  let booked = true
  for (const path of paths) {
    // A state move or reschedule starts with a booking: when booking failed, that is the report.
    if (!booked && path.needsBooking) continue
    try {
      const said = await withRetries(db, schema, path.run, path.attempts ?? 1)
      out.ok(path.place, `${path.what}: ${said}; rolled back`)
    } catch (err) {
      // The table itself is said once by check (non-transactional.ts); the path was refused before it wrote.
      if (err instanceof NonTransactionalError) {
        if (path.what.startsWith('POST /appointments')) booked = false
        out.notProven(path.place, `${path.what}: not performed: it writes table \`${err.table}\` (${err.engine}), which cannot roll back`)
        continue
      }
      const required = path.optionalRefs ? requiredByDatabase(err) : []
      if (required.length > 0) {
        // The database holds these refs NOT NULL: the server refuses such bookings by name, as it should.
        moves.everyRef = true
        // A warning, not an ok: chat callers (and conformance) book with the professional only, and get a 400.
        out.warning(path.place, `${path.what}: refused by name, as the clinic database requires ${required.join(' and ')} (its column takes no NULL, and Ponte writes every mapped column, so a column default never applies): callers must send ${required.length === 1 ? 'it' : 'them'}, or give the clinic's usual value with ${required.map((r) => `\`write.refs.${r}.otherwise\``).join(' and ')}, or the value meaning none with the ref's \`nullIf\` (docs/mapping.md)`)
        continue
      }
      if (path.what.startsWith('POST /appointments')) booked = false
      if (refusedAsReadOnly(err)) {
        out.notProven('', 'writes not proven: read-only login (the database refused to write; check needs a login that may write, and rolls every write back)')
        return
      }
      if (err instanceof DatabaseUnavailableError) throw err
      report(err, path, compiled, out)
    }
  }
}

/** The fields a refusal names only as required by the installation (its columns NOT NULL); none for any other error. */
function requiredByDatabase (err: unknown): string[] {
  if (!(err instanceof InvalidInputError) || err.errors.length === 0) return []
  const fields = err.errors.map((e) => e.path.replace('/body/', ''))
  // Only refs the professional-only booking left out: a field it sent (client, date, hour) said to be missing is a mistake of the mapping.
  if (!err.errors.every((e) => e.message === REQUIRED_BY_INSTALLATION) || !fields.every((f) => LEFT_OUT.has(f))) return []
  return fields
}
const LEFT_OUT = new Set(['service', 'location', 'healthInsurance', 'plan', 'specialty'])

/** Each attempt in a transaction of its own (a refused move may have written before it was refused); a clash tries the next. */
async function withRetries (db: Database, schema: Schema, run: Path, attempts: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inRolledBack(db, schema, async (tx) => await run(tx, attempt))
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt + 1 >= attempts) throw attempts > 1 && err instanceof ConflictError ? new Clashed(attempts, err.message) : err
    }
  }
}

/** Every client and time a path tried clashed with the clinic's own bookings. */
class Clashed extends Error {
  constructor (readonly attempts: number, readonly last: string) { super(last) }
}

const PATCH_FIELDS: readonly ClientField[] = ['name', 'email', 'cpf', 'birthday']

// ---- the paths ----

async function createClient (compiled: CompiledMapping, plans: ClientWritePlans, db: Database, catalog: LiveCatalog, spellings?: Spellings): Promise<string> {
  const { model } = compiled
  const all = clientValues(model)
  const sent = (['name', 'phone', 'email', 'cpf', 'birthday'] as const).filter((f) => f === 'name' || f === 'phone' || ((plans.writers[f] ?? plans.rowWriters[f]) !== undefined && !plans.ignored.has(f)))
  const input = Object.fromEntries(sent.map((f) => [f, all[f]])) as { name: string, phone: string }
  const s = services(compiled, db)
  const { record } = await s.clientWrites.create(input, undefined)
  const expected: Columns = { ...steady(plans.constants) }
  const places: Record<string, string> = Object.fromEntries(Object.keys(expected).map((c) => [c, `${model.client.path}/write/set/${c}`]))
  for (const f of sent) {
    const writer = plans.writers[f]
    if (!writer) continue
    Object.assign(expected, writer.encode(storedForm(compiled, f, all[f])))
    for (const c of writer.columns) places[c.column] = fieldPath(compiled, f)
  }
  Object.assign(expected, ownKeys(model.client, record.id))
  await compareStored(db, compiled, model.client, record.id, expected, places, catalog, 'POST /clients')
  const phoneRow = await comparePhoneRow(compiled, plans, db, catalog, record.id, storedForm(compiled, 'phone', all.phone))
  if (sent.includes('birthday')) compareSpelling(compiled, plans, all.birthday, spellings, 'POST /clients')
  return `${sent.join(', ')} written, read back as sent by the mapping and as stored${phoneRow === 'not compared' ? ' (the phone row\'s kind and copies not compared: it hangs from the client through a join)' : ''}`
}

async function patchClient (compiled: CompiledMapping, plans: ClientWritePlans, field: ClientField, db: Database, catalog: LiveCatalog, spellings?: Spellings): Promise<string> {
  const s = services(compiled, db)
  const [existing] = await s.clients.list({ limit: 1, offset: 0 }, undefined)
  if (!existing) throw new NotProven('no client to correct')
  const value = PATCH_VALUES[field] as string
  await s.clientWrites.update(existing.id, { [field]: value }, undefined)
  // The joined row holding the field takes its own stamps (`update` of its entry).
  const patch = plans.patch([field])
  const stamps = isUnsupported(patch) ? [] : await comparedStamps(compiled, patch, db, catalog, existing.id, `PATCH /clients ${field}`)
  if (stamps.length > 0) throw new Misstored(stamps)
  const writer = plans.writers[field]
  if (writer) {
    const place = fieldPath(compiled, field)
    await compareStored(db, compiled, compiled.model.client, existing.id, writer.encode(storedForm(compiled, field, value)), Object.fromEntries(writer.columns.map((c) => [c.column, place])), catalog, `PATCH /clients ${field}`)
  }
  if (field === 'birthday') compareSpelling(compiled, plans, value, spellings, `PATCH /clients ${field}`)
  return `read back as sent by the mapping${writer ? ' and as stored' : ''}${!isUnsupported(patch) && patch.stamped.length > 0 ? `, the ${patch.stamped.map((x) => x.alias).join(', ')} row stamped` : ''}`
}

interface Booked { id: string, time: BookedTime, said: string, professional: string, client: string }

/** Books the first free slot that takes it (another booking or the client's day may hold some). */
async function book (compiled: CompiledMapping, plans: AppointmentWritePlans, db: Database, catalog: LiveCatalog, today: string, everyRef: boolean, owners: Owners, skip = 0, clientAt = 0): Promise<Booked> {
  const { model } = compiled
  const a = model.appointment
  const s = services(compiled, db)
  const snap = await s.catalog.snapshot(undefined)
  // Another client where asked for, else the first (a clinic with fewer clients); one the mapping lets be booked.
  const candidates = [...await s.clients.list({ limit: 20, offset: clientAt }, undefined), ...await s.clients.list({ limit: 20, offset: 0 }, undefined)]
  let client: (typeof candidates)[number] | undefined
  for (const c of candidates) {
    if (await s.clients.bookable(c.id, undefined)) { client = c; break }
  }
  if (!client) throw new NotProven('no client to book for')
  const stored = (name: BookingRef): boolean => a.refs[name] !== undefined && plans.readOnlyRefs[name] === undefined && !plans.ignored.has(name)
  let tried = 0
  for (const slot of await freeSlots(s.availability, snap, today)) {
    if (tried++ < skip) continue
    const request: Record<string, string> = { date: slot.date, hour: slot.hour, client: client.id, professional: slot.professional }
    // The client's own value of each ref the booking may take from the client, as it stands before the booking.
    const own = await clientOwn(plans.clientDefaults, db, client.id)
    if (everyRef) {
      for (const name of ['service', 'location', 'healthInsurance'] as const) {
        const id = stored(name) ? refFor(snap, name, slot.professional, slot[name as keyof ProbeSlot]) : undefined
        if (id !== undefined) request[name] = id
      }
      // A ref through a join of the client's own rows (a coverage card): one the client holds.
      for (const [name, joined] of Object.entries(plans.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
        if (joined.owner === undefined || !stored(name)) continue
        const { statement, args } = joined.heldBy(joined.owner, client.id)
        const [held] = await db.query(statement, args)
        if (held?.id === undefined || held.id === null) delete request[name]
        else request[name] = String(held.id)
      }
      // One kept to the client's own (`owned`): the client's, or none.
      for (const [name, o] of Object.entries(plans.clientDefaults)) {
        if (o?.owned !== true || !stored(name as BookingRef)) continue
        if (own[name as keyof ClientOwn] === undefined) delete request[name]
        else request[name] = own[name as keyof ClientOwn]?.id as string
      }
      const plan = stored('plan') && request.healthInsurance !== undefined ? [...snap.related('healthInsurance', request.healthInsurance, 'plan') ?? []][0] : undefined
      if (plan !== undefined) request.plan = plan
    }
    let record: AppointmentT
    try {
      record = (await s.booking.book(request as never, undefined)).record
    } catch (err) {
      // Taken by the clinic's own bookings, or the client's: the next slot.
      if (err instanceof ConflictError && tried < skip + 40) continue
      throw err
    }
    const endHour = record.endHour ?? slot.hour
    const booked = timeOf(record, endHour)
    // A booking without a location takes the one of the professional's hours (or only workplace).
    const location = request.location ?? (record.location as { id?: string } | undefined)?.id
    const refs = Object.fromEntries(BOOKING_REFS.flatMap((r) => {
      // A ref left out is stored as the client's own (`fromClient`), else the mapping's default for it (`write.refs.<ref>.otherwise`).
      const id = r === 'location' ? location : request[r] ?? (r === 'client' ? undefined : own[r]?.id ?? plans.defaults[r])
      return id !== undefined && stored(r) ? [[r, id]] : []
    })) as Partial<Record<BookingRef, string>>
    // The copies of what the booking names (the client's name, the service's…), as the booking read them.
    const read = await bookedRecords(plans, db, { ...refs, client: client.id })
    // The working-hours row covering the start, where the row copies its columns (`{ hours: … }`).
    const covered = await withCovering(compiled, db, booked, slot.professional, location)
    // A phone copy holds the phone GET /clients answers for the client (`{ client: phone }`), not the booking's own read of it.
    const copies = read.client?.phone === undefined && client.phone === undefined ? read : { ...read, client: read.client && { ...read.client, phone: client.phone } }
    // A claim writes the client, the refs sent and the initial state into the row; the rest is the slot's.
    const expected = plans.openSlots
      ? steady((now) => Object.assign({ ...plans.written.state(model.states.initial, now) }, ...(['client', ...CLAIMED_REFS] as const).flatMap((r) => {
        const writer = plans.refs[r]
        return refs[r] !== undefined && writer ? [writer.encode(bindId(refs[r], writer.columns[0].type))] : []
      })))
      : steady((now) => plans.columns(now, covered, refs, copies))
    const places = placesOf(compiled, plans, booked, expected, 'set')
    for (const [name, joined] of Object.entries(plans.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
      const id = refs[name]
      if (id === undefined) continue
      const mine = name === 'client' ? undefined : own[name]
      const bound = mine?.owned === true && request[name] !== undefined ? plans.clientDefaults[name as keyof ClientOwn]?.bindOwn(client.id, id) : joined.bind(id, client.id)
      const [row] = request[name] === undefined && mine !== undefined ? [{ id: mine.stored }] : bound ? await db.query(bound.statement, bound.args) : []
      expected[joined.column.column] = row?.id ?? row?.v
      places[joined.column.column] = mine?.path ?? a.refs[name]?.path ?? `${a.path}/write/refs/${name}`
    }
    // A direct ref taken from the client: a difference is the `fromClient` line's.
    for (const [name, mine] of Object.entries(own)) {
      if (request[name] !== undefined || !mine) continue
      for (const col of plans.refs[name as BookingRef]?.columns ?? []) places[col.column] = mine.path
    }
    Object.assign(expected, ownKeys(a, record.id))
    await compareStored(db, compiled, a, record.id, expected, places, catalog, 'POST /appointments')
    await compareOwners(db, plans, owners, refs, record.id, client.id)
    const sentRefs = Object.keys(refs).join(', ')
    return { id: record.id, time: booked, professional: slot.professional, client: client.id, said: `date, hour, ${sentRefs} written, read back as sent by the mapping and as stored` }
  }
  throw new NotProven('no free slot in the next four weeks took a booking')
}

async function moveState (compiled: CompiledMapping, plans: AppointmentWritePlans, db: Database, catalog: LiveCatalog, today: string, state: string, everyRef: boolean, owners: Owners): Promise<string> {
  const { states } = compiled.model
  const route = movesTo(states.initial, state, states.moves)
  if (!route) return `not reachable from ${states.initial} by the mapping's moves, so no request can make it`
  const booked = await book(compiled, plans, db, catalog, today, everyRef, owners)
  const s = services(compiled, db)
  for (const step of route.slice(0, -1)) await s.booking.changeState(booked.id, step, undefined)
  // The last move is compared with the row it leaves behind, where the mapping writes one.
  const from = route.length > 1 ? route[route.length - 2] : states.initial
  const left = await comparedLeftRow(compiled, plans, db, catalog, booked.id, { left: from, entered: state, change: 'state', what: `PATCH …/state ${state}` }, async () => await s.booking.changeState(booked.id, state, undefined))
  if (left !== undefined && left.length > 0) throw new Misstored(left)
  const leftSaid = left === undefined ? '' : `, the row it leaves (${from}) added to the history as mapped`
  // Released, the row is a free slot again: the move checked it reads so (services/booking.ts).
  if (plans.openSlots?.onCancel === 'release' && states.free.includes(state)) return `${route.join(' → ')}: the row reads as a free slot again (onCancel: release)${leftSaid}`
  const expected = steady((now) => plans.written.state(state, now))
  const places = Object.fromEntries(Object.keys(expected).map((c) => [c, `${compiled.model.appointment.path}/write/states/${state}/${c}`]))
  await compareStored(db, compiled, compiled.model.appointment, booked.id, expected, places, catalog, `PATCH …/state ${state}`)
  return `${route.join(' → ')}, read back by the mapping and as stored${leftSaid}`
}

async function reschedule (compiled: CompiledMapping, plans: AppointmentWritePlans, db: Database, catalog: LiveCatalog, today: string, attempt: number, everyRef: boolean, owners: Owners): Promise<string> {
  const booked = await book(compiled, plans, db, catalog, today, everyRef, owners, 0, attempt % MOVE_CLIENTS)
  const s = services(compiled, db)
  const snap = await s.catalog.snapshot(undefined)
  // Another free slot of the same professional, later than the booked one: a later one on each attempt.
  const later = (await freeSlots(s.availability, snap, today)).filter((x) => x.professional === booked.professional && `${x.date} ${x.hour}` > `${booked.time.date} ${booked.time.hour}`)
  if (later.length === 0) throw new NotProven('no second free slot of the professional to move the booking to')
  const to = later[Math.floor(attempt / MOVE_CLIENTS) % later.length]
  const { states } = compiled.model
  const entered = states.onReschedule === 'keep' ? states.initial : states.onReschedule
  let said = ''
  const left = await comparedLeftRow(compiled, plans, db, catalog, booked.id, { left: states.initial, entered, change: 'reschedule', what: 'PATCH …/time' }, async () => { said = await s.booking.reschedule(booked.id, { date: to.date, hour: to.hour }, undefined) })
  if (left !== undefined && left.length > 0) throw new Misstored(left)
  const leftSaid = left === undefined ? '' : ', the row as it was added to the history as mapped'
  const record = await s.appointments.get(booked.id, undefined)
  const endHour = record.endHour ?? to.hour
  const moved = timeOf(record, endHour)
  if (moved.date !== to.date || moved.hour !== to.hour) throw new NotProven('the appointment does not read back at the new time')
  // The appointment swapped times with the new slot's free row (open-slot-claims.ts), which the move read back free at the old time.
  if (plans.openSlots) return `${said.replace(/\.$/, '')}: swapped with the free row at the new time, the same id read back there${leftSaid}`
  // The working hours' columns the row copies are the new start's row's.
  const covered = await withCovering(compiled, db, moved, booked.professional, (record.location as { id?: string } | undefined)?.id)
  const expected = steady((now) => plans.written.reschedule(now, covered))
  const places = placesOf(compiled, plans, moved, expected, 'reschedule')
  await compareStored(db, compiled, compiled.model.appointment, booked.id, expected, places, catalog, 'PATCH …/time')
  return `moved, read back at the new time by the mapping and as stored${leftSaid}`
}

// ---- comparing the stored row ----

/** Per ref written through a join, the joined table's column holding the client's id (owned-joins.ts). */
type Owners = Partial<Record<BookingRef, string>>

function ownersOf (compiled: CompiledMapping, plans: AppointmentWritePlans, catalog: LiveCatalog, references: readonly DeclaredReference[]): Owners {
  return Object.fromEntries((Object.entries(plans.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][])
    .flatMap(([name, joined]) => { const o = ownerColumn(compiled, joined, catalog, references); return o && o.byName !== true ? [[name, o.column]] : [] }))
}

/** The joined row a booking points at through a patients' table is the booked client's, or the row is misplaced (its id reads back as sent either way). */
async function compareOwners (db: Database, plans: AppointmentWritePlans, owners: Owners, refs: Partial<Record<BookingRef, string>>, id: string, client: string): Promise<void> {
  const found: { place: string, why: string }[] = []
  for (const [name, column] of Object.entries(owners) as [BookingRef, string][]) {
    const joined = plans.joinedRefs[name]
    if (!joined || refs[name] === undefined) continue
    const bound = joined.pointedRow(column, id)
    const [row] = bound ? await db.query(bound.statement, bound.args) : []
    if (row?.value === undefined || row.value === null || String(row.value).trim() !== client) {
      found.push({ place: joined.path, why: `POST /appointments: the \`${joined.alias}\` row the booking points at for ${name} belongs to another client (its \`${column}\` is not the booked client's id), though ${name} reads back as sent` })
    }
  }
  if (found.length > 0) throw new Misstored(found)
}

class Misstored extends Error {
  constructor (readonly found: { place: string, why: string }[]) { super('misstored') }
}

/** `time` with the copied columns of the working-hours row covering it, where the mapping copies some. */
async function withCovering (compiled: CompiledMapping, db: Database, time: BookedTime, professional: string, location: string | undefined): Promise<BookedTime> {
  if (hoursColumns(compiled.model).length === 0) return time
  const covering = await coveringHours(db, compiled, { date: time.date, hour: time.hour, professional, location })
  return covering === undefined ? time : { ...time, covering }
}

/** The time an answered appointment holds, as the compiler's writers take it. */
function timeOf (record: { date: string, hour: string }, endHour: string): BookedTime {
  return { date: record.date, hour: record.hour, endHour, minutes: Math.max(endMinutesOf(record.hour, endHour) - minutesOf(record.hour), 0) }
}

/** Columns `write.set` fills with the new row's own key (`newKey: true`) hold the id the write answered. */
function ownKeys (t: AppointmentModel | ClientModel, id: string): Columns {
  return Object.fromEntries(Object.entries(t.write?.set ?? {}).filter(([, w]) => isNewKey(w)).map(([column]) => [column, id]))
}

async function compareStored (db: Database, compiled: CompiledMapping, t: TableModel, id: string, expected: Columns, places: Record<string, string>, catalog: LiveCatalog, what: string): Promise<void> {
  const columns = Object.keys(expected)
  if (columns.length === 0) return
  const plan = storedRow(t, columns, compiled.dialect)
  const bound = plan.bind(id)
  const rows = bound ? await db.query(bound.statement, bound.args) : []
  if (rows.length !== 1) throw new Misstored([{ place: `${t.path}/key`, why: `${what} wrote a row that is not found by its key in \`${t.table}\` (${rows.length} rows have it)` }])
  const found = differences(expected, plan.read(rows[0]), catalog.table(t.table))
  if (found.length > 0) throw new Misstored(found.map((d) => ({ place: places[d.column] ?? `${t.path}/write`, why: `${what}: ${d.why}` })))
}

/**
 * The row of a child table a new client's phone went to (`after: - phones: 0`): its kind code
 * and its copies of the phone (`value_compact: { phone: e164 }`) as the mapping says, found by
 * the client and the number as stored.
 */
async function comparePhoneRow (compiled: CompiledMapping, plans: ClientWritePlans, db: Database, catalog: LiveCatalog, id: string, phone: string): Promise<'compared' | 'nothing to compare' | 'not compared'> {
  const writer = plans.rowWriters.phone
  const at = /^phones\/(\d+)\./.exec(writer?.columns[0]?.column ?? '')?.[1]
  const collect = at === undefined ? undefined : compiled.model.client.phones[Number(at)]?.collect
  if (!writer || !collect) return 'nothing to compare'
  const prefix = `phones/${at as string}.`
  const encoded = Object.fromEntries(Object.entries(writer.encode(phone)).map(([k, v]) => [k.slice(prefix.length), v]))
  const stored = encoded[collect.column]
  const expected = Object.fromEntries(Object.entries(encoded).filter(([c]) => c !== collect.column))
  const plan = storedPhoneRow(compiled.model.client, collect, Object.keys(expected), compiled.dialect)
  if (typeof stored !== 'string' || Object.keys(expected).length === 0) return 'nothing to compare'
  const bound = plan?.bind(id, stored)
  if (!plan || !bound) return 'not compared'
  const rows = await db.query(bound.statement, bound.args)
  const place = (c: string): string => writer.columns.find((x) => x.column === `${prefix}${c}`)?.path ?? `${compiled.model.client.path}/write/after`
  if (rows.length !== 1) throw new Misstored([{ place: place(collect.column), why: `POST /clients wrote ${rows.length} rows of \`${collect.table}\` holding the new phone for the client (one expected)` }])
  const found = differences(expected, plan.read(rows[0]), catalog.table(collect.table))
  if (found.length > 0) throw new Misstored(found.map((d) => ({ place: place(d.column), why: `POST /clients: ${d.why}` })))
  return 'compared'
}

/** A birthday the mapping writes as text spelt unlike most stored ones: misstored, though it reads back. */
function compareSpelling (compiled: CompiledMapping, plans: ClientWritePlans, birthday: string, spellings: Spellings | undefined, what: string): void {
  const writer = plans.writers.birthday ?? plans.rowWriters.birthday
  // Day, month and year in their own columns: their padding is the data pass's to compare.
  if (!writer || writer.columns.length > 1) return
  const why = unlikeStored(Object.values(writer.encode(birthday))[0], spellings)
  if (why) throw new Misstored([{ place: fieldPath(compiled, 'birthday'), why: `${what}: ${why}` }])
}

/** The mapping place that writes each column of a new or moved appointment row. */
function placesOf (compiled: CompiledMapping, plans: AppointmentWritePlans, time: BookedTime, expected: Columns, own: 'set' | 'reschedule'): Record<string, string> {
  const a = compiled.model.appointment
  const places: Record<string, string> = {}
  const doc = (a.write?.[own] ?? {}) as Record<string, unknown>
  const initial = (a.write?.states?.[compiled.model.states.initial] ?? {}) as Record<string, unknown>
  const set = (a.write?.set ?? {}) as Record<string, unknown>
  for (const c of Object.keys(expected)) {
    if (c in doc) places[c] = `${a.path}/write/${own}/${c}`
    else if (own === 'set' && c in initial) places[c] = `${a.path}/write/states/${compiled.model.states.initial}/${c}`
    // A `write.set` column that follows the time (a slot part, a copy of the working hours) is rewritten by the move.
    else if (c in set) places[c] = `${a.path}/write/set/${c}`
  }
  const start = a.start.datetime ?? a.start.date
  for (const c of Object.keys(plans.written.time(time))) {
    const v = Object.values({ ...a.start, ...a.end }).find((x) => (x as { column?: string } | undefined)?.column === c)
    places[c] ??= v?.path ?? start?.path ?? `${a.path}/start`
  }
  for (const [name, writer] of Object.entries(plans.refs) as [BookingRef, FieldWriter][]) {
    for (const col of writer.columns) places[col.column] = a.refs[name]?.path ?? `${a.path}/refs/${name}`
  }
  return places
}

// ---- reporting ----

function report (err: unknown, path: { place: string, what: string }, compiled: CompiledMapping, out: Findings): void {
  if (err instanceof Misstored) {
    for (const f of err.found) out.writeProblem(f.place, f.why)
  } else if (err instanceof Clashed) {
    out.notProven(path.place, `${path.what}: not proven: each of the ${err.attempts} clients and times tried clashed with bookings already in the database (last: ${err.message}). ` +
      'Nothing in the mapping is at fault; to prove the path, run check with `--today` on a day whose next four weeks have free slots, or move an appointment by hand on a copy of the database')
  } else if (err instanceof NotProven) {
    out.notProven(path.place, `${path.what}: not proven (${err.message})`)
  } else if (err instanceof NotWritableError && /not found through the mapping's filters/.test(err.message)) {
    const t = path.what.includes('clients') ? compiled.model.client : compiled.model.appointment
    out.writeProblem(t.where.length > 0 ? `${t.path}/where` : `${t.path}/write`, `${path.what}: the written row is not found through the mapping's \`where\` afterwards, so every such request is refused (501): give the columns it filters on under \`write.set\``)
  } else if (err instanceof MisfitMappingValueError) {
    // The mapping's own value (a `write.set` entry): the line writing the column, not the fields sent.
    out.writeProblem(setPlace(compiled, path, err.column), `${path.what} was refused: ${err.errors[0]?.message ?? err.message}`)
  } else if (err instanceof NotWritableError || err instanceof InvalidInputError) {
    // The service refused its own write: what it names is where the mapping stores it wrongly.
    const fields = err.errors.map((e) => e.path.replace('/body/', ''))
    const why = err instanceof NotWritableError ? 'does not read back as sent (the service refused its own write and rolled it back)' : `was refused: ${err.errors.map((e) => e.message).join('; ') || err.message}`
    if (fields.length === 0) out.writeProblem(path.place, `${path.what} ${err instanceof NotWritableError ? `was refused: ${err.message}` : why}`)
    // A refusal saying why (a joined row with nothing to hang from) is said as it is.
    const own = (f: string): string | undefined => err.errors.find((e) => e.path === `/body/${f}` && e.message !== MISSTORED)?.message
    for (const f of fields) out.writeProblem(blame(compiled, f, path), `${path.what}: ${f} ${err instanceof NotWritableError && own(f) !== undefined ? `was refused: ${own(f) as string}` : why}`)
  } else if (err instanceof ConflictError) {
    out.notProven(path.place, `${path.what}: not proven (${err.message})`)
  } else {
    if (out.covers(path.place)) return
    out.writeProblem(path.place, `${path.what}: ${explain(err, 'appointment.insert')}`)
  }
}

/** The `write.set` (or initial state's) entry writing `column` on this path's table, else the path itself. */
function setPlace (compiled: CompiledMapping, path: { place: string, what: string }, column: string): string {
  const { model } = compiled
  const t = path.what.includes('clients') ? model.client : model.appointment
  const docs: [string, Record<string, unknown> | undefined][] = [
    [`${t.path}/write/set`, t.write?.set as Record<string, unknown> | undefined],
    ...t === model.appointment ? [[`${t.path}/write/states/${model.states.initial}`, model.appointment.write?.states?.[model.states.initial] as Record<string, unknown> | undefined] as [string, Record<string, unknown> | undefined]] : []
  ]
  for (const [at, doc] of docs) {
    const key = Object.keys(doc ?? {}).find((c) => c.toLowerCase() === column.toLowerCase())
    if (key !== undefined) return `${at}/${key}`
  }
  return path.place
}

/** The mapping place that makes `field` read back wrongly on this path: a `write.states`/`reschedule`/`set` entry writing one of its columns, else the field itself. */
function blame (compiled: CompiledMapping, field: string, path: { place: string, what: string }): string {
  const { model } = compiled
  const a = model.appointment
  const writes = compiled.writes.appointment
  const columns = isUnsupported(writes)
    ? []
    : field === 'state' ? [] : field === 'date' || field === 'hour' ? Object.values(a.start).flatMap((v) => (v as { column?: string } | undefined)?.column ?? []) : writes.refs[field as BookingRef]?.columns.map((c) => c.column) ?? []
  const state = /…\/state (\S+)/.exec(path.what)?.[1]
  const docs: [string, Record<string, unknown> | undefined][] = [
    ...state ? [[`${a.path}/write/states/${state}`, a.write?.states?.[state] as Record<string, unknown> | undefined] as [string, Record<string, unknown> | undefined]] : [],
    ...path.what.includes('/time') ? [[`${a.path}/write/reschedule`, a.write?.reschedule as Record<string, unknown> | undefined] as [string, Record<string, unknown> | undefined]] : [],
    [`${a.path}/write/set`, a.write?.set as Record<string, unknown> | undefined]
  ]
  for (const [base, doc] of docs) {
    const hit = columns.find((c) => doc !== undefined && c in doc)
    if (hit) return `${base}/${hit}`
  }
  if (path.what.includes('clients')) return fieldPath(compiled, field as ClientField)
  if (field === 'state') return state ? `${a.path}/write/states/${state}` : a.state.path
  if (field === 'date' || field === 'hour') return (a.start[field] ?? a.start.datetime)?.path ?? `${a.path}/start`
  return a.refs[field as BookingRef]?.path ?? path.place
}

function fieldPath (compiled: CompiledMapping, field: ClientField): string {
  const c = compiled.model.client
  return (field === 'phone' ? writtenPhone(compiled)?.path : c.fields[field as keyof typeof c.fields]?.path) ?? `${c.path}/fields/${field}`
}

/** The phone a new client's number is written to: the one `write.phone` names, else the first. */
function writtenPhone (compiled: CompiledMapping): CompiledMapping['model']['client']['phones'][number] | undefined {
  const { phones } = compiled.model.client
  const writes = compiled.writes.client
  const column = isUnsupported(writes) ? undefined : writes.writers.phone?.columns[0]?.column
  return phones.find((p) => column !== undefined && p.column === column) ?? phones[0]
}

// ---- helpers ----

/** The value the service stores for a field sent in canonical form (a phone as E.164). */
function storedForm (compiled: CompiledMapping, field: ClientField, value: string): string {
  return field === 'phone' ? parsePhoneInput(value, compiled.model.phone) ?? value : value
}

/** The shortest sequence of moves from `from` to `to`, or undefined. */
function movesTo (from: string, to: string, moves: Record<string, string[]>): string[] | undefined {
  const queue: string[][] = [[from]]
  const seen = new Set([from])
  while (queue.length > 0) {
    const route = queue.shift() as string[]
    const last = route[route.length - 1]
    if (last === to) return route.slice(1)
    for (const next of moves[last] ?? []) if (!seen.has(next)) { seen.add(next); queue.push([...route, next]) }
  }
  return undefined
}

/** The server's services over the probe's database, built as ponte.ts builds them. */
function services (compiled: CompiledMapping, db: Database) {
  const catalog = new Catalog(compiled, db)
  const clients = new Clients(compiled, db)
  const lookups = new Lookups(compiled, db, catalog, clients)
  const appointments = new Appointments(compiled, db, catalog, lookups, { maxRangeDays: 31 })
  const free = compiled.model.states.free
  const availability = new Availability(compiled, db, catalog, { freeing: free })
  return {
    catalog,
    clients,
    appointments,
    availability,
    clientWrites: new ClientWrites(compiled, db, catalog, clients),
    booking: new Booking(compiled, db, catalog, clients, appointments, availability, { refusePast: true, freeing: free })
  }
}
