// Plans have no table of their own in the mapping language: they exist through the relations
// that name them (a plan belongs to a convênio, covers services…) and through the appointment
// column that stores them. One rule for every place that is sent a plan id.
import { LOOKUPS, type MappingModel } from '../mapping/model.js'
import type { Snapshot } from './catalog.js'

/**
 * Whether `id` is a plan of this installation: true/false when Ponte can tell; undefined when
 * plans are stored but no relation names them (then only the id's form can be checked). An
 * installation that neither stores nor relates plans has none, so every plan id is unknown.
 */
export function planExists (model: MappingModel, snap: Snapshot, id: string): boolean | undefined {
  const related = LOOKUPS.filter((l) => snap.hasRelation('plan', l))
  if (related.length > 0) return related.some((l) => (snap.related('plan', id, l)?.size ?? 0) > 0)
  return model.appointment.refs.plan ? undefined : false
}
