// Compiles a mapping once, at start-up, into statements and row readers. Request handling
// only binds values and runs them: no per-request interpretation of the mapping.
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import { MappingError } from '../errors.js'
import type { MappingModel, RelationModel } from '../model.js'
import { APPOINTMENT_FILTERS, compileAppointments, shapeName, type AppointmentShape, type CompiledAppointments } from './appointment.js'
import { compileAvailability, type CompiledAvailability } from './availability.js'
import { compileClients, type CompiledClients } from './client.js'
import { compileLookup, type CompiledLookup } from './lookup.js'
import { compileRelation, type CompiledEdge } from './relation.js'
import { CompileError } from './scope.js'
import { compileClientWrites, PATCHABLE } from './client-write.js'
import { compileAppointmentWrites } from './appointment-write.js'
import type { RowPlan } from './rows.js'

export interface CompiledMapping {
  model: MappingModel
  dialect: Dialect
  lookups: CompiledLookup[]
  edges: CompiledEdge[]
  throughs: (RelationModel & { kind: 'through' })[]
  clients: CompiledClients
  appointments: (shape: AppointmentShape) => CompiledAppointments
  /** Working hours and blocks; undefined when the mapping has no `availability` block. */
  availability?: CompiledAvailability
  /** Every statement shape, for `ponte explain` and the golden tests (writes too, where the mapping has them). */
  statements: () => Statement[]
}

export function compileMapping (model: MappingModel, dialect: Dialect): CompiledMapping {
  return located(model, () => {
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
        compiled = located(model, () => compileAppointments(model, dialect, normal))
        shapes.set(key, compiled)
      }
      return compiled
    }
    // Compile the common shapes now, so a mapping error stops start-up instead of a request.
    const usable = APPOINTMENT_FILTERS.filter((f) => f === 'state' || model.appointment.refs[f])
    appointments({ filters: usable, minimal: false })
    // Free slots read the working hours and, in one statement, the range's occupancy.
    const availability = compileAvailability(model, dialect)
    const occupancy: AppointmentShape[] = !availability ? [] : [
      { filters: [], minimal: false, occupancy: true },
      ...(model.appointment.refs.professional ? [{ filters: ['professional'], minimal: false, occupancy: true } satisfies AppointmentShape] : [])
    ]
    occupancy.forEach(appointments)
    return {
      model,
      dialect,
      lookups,
      edges,
      throughs,
      clients,
      appointments,
      availability,
      statements: () => [
        ...lookups.map((l) => l.all),
        ...edges.flatMap((e) => [e.pairs, e.forClient].filter((s): s is Statement => s !== undefined)),
        clients.page,
        clients.byId,
        clients.search(['phone']),
        clients.search(['cpf', 'phone']),
        clients.search(['email']),
        clients.search(['name']),
        appointments({ filters: [], minimal: false }).statement,
        appointments({ filters: [], minimal: true }).statement,
        ...usable.map((f) => appointments({ filters: [f], minimal: false }).statement),
        appointments({ filters: usable, minimal: false }).statement,
        appointments({ filters: [], minimal: false, byId: true }).statement,
        ...occupancy.map((shape) => appointments(shape).statement),
        ...(availability?.statements() ?? []),
        ...bookingReads(appointments, model),
        ...writeStatements(model, dialect)
      ]
    }
  })
}

// What booking reads inside its transaction: the professional's and the client's day under lock.
function bookingReads (appointments: (shape: AppointmentShape) => CompiledAppointments, model: MappingModel): Statement[] {
  return [
    appointments({ filters: [], minimal: false, byId: true, occupancy: true, lock: true }).statement,
    ...(['professional', 'client'] as const).filter((f) => model.appointment.refs[f])
      .map((f) => appointments({ filters: [f], minimal: false, occupancy: true, lock: true }).statement)
  ]
}

/** The write statements, where the mapping describes writes (a read-only mapping has none). */
export function writeStatements (model: MappingModel, dialect: Dialect): Statement[] {
  const out: Statement[] = []
  const attempt = (fn: () => void) => {
    try { fn() } catch (err) { if (!(err instanceof CompileError)) throw err }
  }
  attempt(() => {
    const c = compileClientWrites(model, dialect)
    const plain = [...PATCHABLE].filter((f) => c.writers[f])
    if (plain.length > 0) out.push(c.update(plain))
    attempt(() => { out.push(...c.rowUpdates([...PATCHABLE].filter((f) => !c.writers[f] && c.rowWriters[f]))) })
    const rowStatements = (rows: RowPlan[]) => rows.flatMap((r) => r.keyed ? [...r.keyed.plan.key.before, r.keyed.plan.statement] : r.statement ? [r.statement] : [])
    attempt(() => {
      const insert = c.insert()
      out.push(...rowStatements(c.rows?.before ?? []), ...insert.key.before, insert.statement, ...(insert.selfKey?.update ? [insert.selfKey.update] : []), ...rowStatements(c.rows?.after ?? []))
    })
  })
  attempt(() => {
    const a = compileAppointmentWrites(model, dialect)
    attempt(() => { const insert = a.insert(); out.push(...insert.key.before, ...Object.values(a.joinedRefs).map((j) => j.lookup), insert.statement) })
    if (a.slotBooking) out.push(...a.slotBooking.statements())
    if (a.history) out.push(a.history.close, a.history.open)
    for (const state of model.states.values) attempt(() => { out.push(a.stateUpdate(state)) })
    out.push(a.reschedule)
  })
  return out
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
