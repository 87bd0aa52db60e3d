// Compiles a mapping once, at start-up, into statements and row readers. Request handling
// only binds values and runs them: no per-request interpretation of the mapping.
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import { MappingError } from '../errors.js'
import type { MappingModel, RelationModel } from '../model.js'
import { APPOINTMENT_FILTERS, compileAppointments, shapeName, type AppointmentShape, type CompiledAppointments } from './appointment.js'
import { compileAvailability, type CompiledAvailability } from './availability.js'
import { compileCheck, type CheckPlans } from './check.js'
import { compileClients, type CompiledClients } from './client.js'
import { compileLookup, type CompiledLookup } from './lookup.js'
import { compileRelation, type CompiledEdge } from './relation.js'
import { CompileError } from './scope.js'
import { compileWrites, type CompiledWrites } from './write-plans.js'
import { allClaimsStatements, claimStatements } from '../../sql/claims.js'
import { recording, References } from './references.js'
import { refuseSplitClock } from './stored-clock.js'
import { compileChanges, type CompiledChanges } from './changes.js'

// The one entry point services use: the compiled installation, its plans and their types.
export type { Bound, DateRange, Supported, Unsupported } from './bind.js'
export { isUnsupported } from './bind.js'
export { NESTED_REFS, type AppointmentFilter, type AppointmentInput, type AppointmentRow, type CompiledAppointments } from './appointment.js'
export { probes, SEARCH_CANDIDATES, type IndexedColumns } from './client.js'
export { DEFAULT_SLOT_MINUTES, type BlockRow, type CompiledAvailability, type DatedRow, type StartGrid, type WeeklyRow } from './availability.js'
export type { FoundSlotRow, SlotRowBooking, SlotRow } from './slot-rows.js'
export { standInAddress, type LookupRecord } from './lookup.js'
export type { CompiledEdge } from './relation.js'
export type { InsertPlan, WrittenColumn } from './write-columns.js'
export { stampOf } from './write-columns.js'
export type { AppointmentScanRow, CheckPlans, ClientScanRow, KeyCount, ProbedColumn, StateCode } from './check.js'
export type { CompiledChanges } from './changes.js'
export type { ReadPlan, ScanBatch, ScanKey, ScanPlan } from './scan.js'
export type { ScheduleFault, ScheduleScan, ScheduleScanRow } from './availability.js'
export type { CapacityFault, SlotRowChecks } from './slot-rows.js'
export { isTextType, templateColumns } from './value.js'
export { nameAsRead, nameLayout, splitInto } from './name-split.js'
export { onColumns } from './join-on.js'
export type { DefaultedRef } from './appointment-write.js'
export type { ClientDefault } from './client-default.js'
export { storedPhoneRow, storedRow, type StoredRowPlan } from './stored-row.js'
export { segment, type Lookup, type Reference, type References, type Use } from './references.js'
export { bindId, isIntegerType, matchesType } from './ids.js'
export { idType } from './key.js'
export { CLAIMED_REFS } from './open-slots.js'
export { largestCounted, runKeyed, type KeyedBound } from './insert-run.js'
export { counterRows } from './history.js'
export { isNewKey } from './derived.js'
export { hoursColumns, type CoveringHours, type HoursColumn } from './hours-copy.js'
export { BOOKING_REFS, PATCHABLE, type AppointmentInsert, type AppointmentWritePlans, type Booked, type BookingRef, type ClientField, type ClientInsert, type ClientPatch, type ClientValues, type ClientWritePlans, type CompiledWrites, type FieldWriter, type HistoryPlan, type JoinedRefPlan, type Reschedule, type BookedTime, type StateMove } from './write-plans.js'

export interface CompiledMapping {
  model: MappingModel
  dialect: Dialect
  lookups: CompiledLookup[]
  edges: CompiledEdge[]
  throughs: (RelationModel & { kind: 'through' })[]
  clients: CompiledClients
  appointments: (shape: AppointmentShape) => CompiledAppointments
  /** Writes, or what this mapping cannot write (`unsupported`), compiled with the reads. */
  writes: CompiledWrites
  /** Working hours and blocks; undefined when the mapping has no `availability` block. */
  availability?: CompiledAvailability
  /** Change detection's own reads, where the mapping declares `changes` (src/events/detector.ts, check/changes.ts). */
  changes?: CompiledChanges
  /** What `ponte check` reads the stored data with (compiled as it asks; not among `statements`, which check runs as probes). */
  check: CheckPlans
  /** Every statement shape, for `ponte explain` and the golden tests (writes too, where the mapping has them). */
  statements: () => Statement[]
  /** Every table and column the compiled statements name, with its use and mapping place (what `check` compares with the database). */
  references: References
}

export function compileMapping (model: MappingModel, dialect: Dialect): CompiledMapping {
  const references = new References()
  return located(model, () => recording(references, () => {
    refuseSplitClock(model)
    const lookups = Object.values(model.lookups).map((l) => compileLookup(l, dialect))
    const edges = model.relations.flatMap((r) => compileRelation(r, model, dialect) ?? [])
    const throughs = model.relations.filter((r): r is RelationModel & { kind: 'through' } => r.kind === 'through')
    const clients = compileClients(model, dialect)
    const shapes = new Map<string, CompiledAppointments>()
    const appointments = (shape: AppointmentShape): CompiledAppointments => {
      const normal = { ...shape, filters: APPOINTMENT_FILTERS.filter((f) => shape.filters.includes(f)) }
      const key = shapeName(normal)
      let compiled = shapes.get(key)
      if (!compiled) {
        compiled = located(model, () => recording(references, () => compileAppointments(model, dialect, normal)))
        shapes.set(key, compiled)
      }
      return compiled
    }
    // Compile the common shapes now, so a mapping error stops start-up instead of a request.
    const usable = APPOINTMENT_FILTERS.filter((f) => f === 'state' || model.appointment.refs[f])
    appointments({ filters: usable, minimal: false })
    // Free slots read the working hours and, in one statement, the range's occupancy.
    const availability = compileAvailability(model, dialect)
    const occupancy: AppointmentShape[] = !availability
      ? []
      : [
          { filters: [], minimal: false, occupancy: true },
          ...(model.appointment.refs.professional ? [{ filters: ['professional'], minimal: false, occupancy: true } satisfies AppointmentShape] : [])
        ]
    // Open slots: the free rows, everybody's (availability) and one professional's (booking).
    if (model.appointment.openSlots) occupancy.push(...occupancy.map((shape) => ({ ...shape, open: true })))
    occupancy.forEach(appointments)
    // Change detection's question of a row that reads as no appointment: is it a free row now?
    const openById: AppointmentShape | undefined = model.appointment.openSlots ? { filters: [], minimal: true, byId: true, open: true } : undefined
    if (openById) appointments(openById)
    const writes = compileWrites(model, dialect)
    const changes = located(model, () => recording(references, () => compileChanges(model, dialect, appointments)))
    const compiled: CompiledMapping = {
      references,
      writes,
      model,
      dialect,
      lookups,
      edges,
      throughs,
      clients,
      appointments,
      availability,
      changes,
      check: compileCheck(model, dialect),
      statements: () => [
        ...lookups.map((l) => l.all),
        ...edges.flatMap((e) => [e.pairs, e.forClient].filter((s): s is Statement => s !== undefined)),
        clients.page,
        clients.byId,
        ...(clients.bookable ? [clients.bookable] : []),
        clients.search(['phone']),
        clients.search(['cpf', 'phone']),
        clients.search(['email']),
        clients.search(['name']),
        appointments({ filters: [], minimal: false }).statement,
        appointments({ filters: [], minimal: true }).statement,
        ...(openById ? [appointments(openById).statement] : []),
        ...usable.map((f) => appointments({ filters: [f], minimal: false }).statement),
        appointments({ filters: usable, minimal: false }).statement,
        appointments({ filters: [], minimal: false, byId: true }).statement,
        ...occupancy.map((shape) => appointments(shape).statement),
        ...(availability?.statements() ?? []),
        ...bookingReads(appointments, model, dialect, occupancy),
        ...writes.statements(),
        ...(changes ? [changes.windowCount.statement, changes.marked?.statement, changes.lastMarker?.statement].filter((x): x is Statement => x !== undefined) : [])
      ]
    }
    // Statements built on first use (slot lookups, corrections of each set of fields) are
    // built now, so the record of references holds every column a request can touch.
    compiled.statements()
    return compiled
  }))
}

// What booking runs inside its transaction: its claims (where the database takes them as
// application locks), the appointment being changed under lock, and the professional's and
// the client's day, read without locks (the claims serialise them). Shapes availability
// also reads are listed once.
function bookingReads (appointments: (shape: AppointmentShape) => CompiledAppointments, model: MappingModel, dialect: Dialect, occupancy: AppointmentShape[]): Statement[] {
  // As a booking takes them: its professional's day and its client's day, in one statement where the dialect can.
  const claims = allClaimsStatements(dialect, 2) ?? claimStatements(dialect)
  const days: AppointmentShape[] = [
    ...(['professional', 'client'] as const).filter((f) => model.appointment.refs[f])
      .map((f): AppointmentShape => ({ filters: [f], minimal: false, occupancy: true })),
    ...(model.appointment.refs.professional && model.appointment.refs.client
      ? [{ filters: ['professional', 'client'], minimal: false, occupancy: true, either: true } satisfies AppointmentShape]
      : [])
  ]
  const listed = new Set(occupancy.map(shapeName))
  return [
    ...(claims ? [claims.take, ...(claims.release ? [claims.release] : [])] : []),
    appointments({ filters: [], minimal: false, byId: true, occupancy: true, lock: true }).statement,
    ...days.filter((d) => !listed.has(shapeName(d))).map((d) => appointments(d).statement)
  ]
}

function located<T> (model: MappingModel, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof CompileError) {
      throw new MappingError([{ file: model.file, path: err.path, ...model.locate(err.path), message: err.message }])
    }
    throw err
  }
}
