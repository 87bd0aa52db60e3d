// What a booking names, as the appointment columns copying it need it (mapping `{ client:
// familyFirst }`, `{ service: name }`): the client's name read through the mapping in the
// booking's own transaction, and each lookup's name from the catalogue the booking checked.
import type { Querier } from '../db/database.js'
import type { AppointmentWritePlans, Booked, BookingRef } from '../mapping/compile/index.js'
import type { Snapshot } from './catalog.js'

const COPIED = ['service', 'professional', 'location', 'healthInsurance'] as const

export async function bookedRecords (plans: AppointmentWritePlans, q: Querier, snap: Snapshot, refs: Partial<Record<BookingRef, string>>): Promise<Booked> {
  const lookups: NonNullable<Booked['lookups']> = {}
  for (const name of COPIED) {
    const id = refs[name]
    if (id === undefined) continue
    const name_ = snap.record(name, id)?.entity.name
    lookups[name] = { id, name: typeof name_ === 'string' ? name_ : undefined }
  }
  const bound = plans.clientName && refs.client !== undefined ? plans.clientName.bind(refs.client) : undefined
  if (!bound || !plans.clientName) return { lookups }
  const [row] = await q.query(bound.statement, bound.args)
  return { lookups, client: row === undefined ? undefined : plans.clientName.read(row) }
}
