// Compiles a mapping once, at start-up, into statements and row readers. Request handling
// only binds values and runs them: no per-request interpretation of the mapping.
import type { Dialect } from '../../sql/dialect.js'
import type { Statement } from '../../sql/statement.js'
import { MappingError } from '../errors.js'
import type { MappingModel, RelationModel } from '../model.js'
import { APPOINTMENT_FILTERS, compileAppointments, shapeName, type AppointmentShape, type CompiledAppointments } from './appointment.js'
import { compileClients, type CompiledClients } from './client.js'
import { compileLookup, type CompiledLookup } from './lookup.js'
import { compileRelation, type CompiledEdge } from './relation.js'
import { CompileError } from './scope.js'

export interface CompiledMapping {
  model: MappingModel
  dialect: Dialect
  lookups: CompiledLookup[]
  edges: CompiledEdge[]
  throughs: (RelationModel & { kind: 'through' })[]
  clients: CompiledClients
  appointments: (shape: AppointmentShape) => CompiledAppointments
  /** Every statement shape, for `ponte explain` and the golden tests. */
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
    return {
      model,
      dialect,
      lookups,
      edges,
      throughs,
      clients,
      appointments,
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
        appointments({ filters: [], minimal: false, byId: true }).statement
      ]
    }
  })
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
