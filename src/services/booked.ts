// What a booking names, as the appointment columns copying it need it (mapping `{ client:
// familyFirst }`, `{ service: name }`): the client's name and each copied lookup's name, read
// through the mapping on the booking's own transaction, so a rename committed before the
// insert is the name it stores.
import type { Querier, Row } from '../db/database.js'
import type { AppointmentWritePlans, Booked, BookingRef } from '../mapping/compile/index.js'

const COPIED = ['service', 'professional', 'location', 'healthInsurance'] as const

/**
 * `tx`: the transaction the row is written in. One statement for the client's name, one per
 * lookup whose name or columns are copied; `serviceRow`: the service's row the transaction already read
 * by the same statement (its length), not read again.
 */
export async function bookedRecords (plans: AppointmentWritePlans, tx: Querier, refs: Partial<Record<BookingRef, string>>, serviceRow?: Row): Promise<Booked> {
  const lookups: NonNullable<Booked['lookups']> = {}
  for (const name of COPIED) {
    const id = refs[name]
    if (id === undefined) continue
    const read = plans.copiedLookups[name]
    const bound = read?.bind(id)
    const [row] = name === 'service' && serviceRow !== undefined ? [serviceRow] : bound ? await tx.query(bound.statement, bound.args) : []
    const record = row === undefined ? undefined : read?.read(row)
    const name_ = record?.entity.name
    lookups[name] = { id, name: typeof name_ === 'string' ? name_ : undefined, ...record?.columns ? { columns: record.columns } : {} }
  }
  const bound = plans.clientName && refs.client !== undefined ? plans.clientName.bind(refs.client) : undefined
  if (!bound || !plans.clientName) return { lookups }
  const [row] = await tx.query(bound.statement, bound.args)
  return { lookups, client: row === undefined ? undefined : plans.clientName.read(row) }
}
