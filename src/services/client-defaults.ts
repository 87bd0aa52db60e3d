// Refs a booking takes from the booked client (`write.refs.<ref>.fromClient`), resolved on the
// booking's own transaction so a change of the client's convênio committed before the insert
// is the one stored: a ref left out takes the client's own (checked as a sent one would be),
// else the mapping's constant; with `owned`, a ref sent must be one of the client's own; one
// held on the client's side only (read through a join the booking does not write) must be it.
import type { Querier } from '../db/database.js'
import type { AppointmentWritePlans, BookingRef, ClientDefault, DefaultedRef } from '../mapping/compile/index.js'
import { ConflictError, InvalidInputError } from '../errors.js'

/** Why a ref id cannot be booked with the rest of `refs` (not in the catalogue, not offered with the professional); undefined when it can. */
export type RefCheck = (name: DefaultedRef, id: string, refs: Partial<Record<BookingRef, string>>) => string | undefined

/**
 * Sets in `refs` each ref taken from the client (or its constant fallback), and returns the
 * columns written through a join (`firstOf`) as they store it; `sent`: the refs the caller sent.
 */
export async function resolveClientRefs (writes: AppointmentWritePlans, tx: Querier, refs: Partial<Record<BookingRef, string>> & { client: string }, sent: Partial<Record<BookingRef, string>>, check: RefCheck): Promise<Record<string, unknown>> {
  const pointers: Record<string, unknown> = {}
  for (const [name, own] of Object.entries(writes.clientDefaults) as [DefaultedRef, NonNullable<AppointmentWritePlans['clientDefaults'][DefaultedRef]>][]) {
    const joined = writes.joinedRefs[name]
    const client = refs.client
    const id = sent[name]
    if (own.held) {
      await refuseOthersThanOwn(own, tx, name, client, id)
      continue
    }
    if (id !== undefined) {
      if (!own.owned) continue
      const bound = own.bindOwn(client, id)
      const [row] = bound ? await tx.query(bound.statement, bound.args) : []
      if (row?.v === undefined || row.v === null) {
        throw new ConflictError(`Client "${client}" has no ${name} "${id}" of their own (the mapping reads the client's own at \`${own.column}\`, write.refs.${name}.fromClient), so it cannot be booked for them. Nothing was written.`, [{ path: `/body/${name}`, message: `is not one of client "${client}"'s own` }])
      }
      if (joined) pointers[joined.column.column] = row.v
      continue
    }
    const bound = own.bindRead(client)
    const found = own.value(bound ? (await tx.query(bound.statement, bound.args))[0] : undefined)
    if (found) {
      const problem = check(name, found.id, refs)
      if (problem !== undefined) {
        throw new ConflictError(`Client "${client}"'s own ${name} "${found.id}" (read at \`${own.column}\`, write.refs.${name}.fromClient) cannot be booked: ${problem}. Send the ${name} to book instead. Nothing was written.`, [{ path: `/body/${name}`, message: `was not sent, and the client's own ("${found.id}") is refused: ${problem}` }])
      }
      refs[name] = found.id
      if (joined) pointers[joined.column.column] = found.stored
      continue
    }
    // The client has none: the mapping's constant, as if sent.
    const fallback = writes.defaults[name]
    if (fallback === undefined) continue
    const problem = check(name, fallback, refs)
    if (problem !== undefined) {
      throw new InvalidInputError(`The mapping's default ${name} is refused: ${problem}.`, [{ path: `/body/${name}`, message: `was not sent, the client has none of their own, and the mapping's default (write.refs.${name}.otherwise: "${fallback}") is refused: ${problem}` }])
    }
    refs[name] = fallback
    if (!joined) continue
    const lookup = joined.bind(fallback, client)
    const [row] = await tx.query(lookup.statement, lookup.args)
    if (row?.id === undefined || row.id === null) throw new InvalidInputError(`The ${name} "${fallback}" cannot hold appointments (nothing in the mapped ${joined.table} table refers to it).`, [{ path: `/body/${name}`, message: 'cannot be booked' }])
    pointers[joined.column.column] = row.id
  }
  return pointers
}

/** A ref the appointment reads from the client's side: one sent must be the client's own, else nothing would store it. */
async function refuseOthersThanOwn (own: ClientDefault, tx: Querier, name: DefaultedRef, client: string, id: string | undefined): Promise<void> {
  if (id === undefined) return
  const bound = own.bindRead(client)
  const found = own.value(bound ? (await tx.query(bound.statement, bound.args))[0] : undefined)
  if (found?.id === id) return
  const theirs = found === undefined ? 'none' : `"${found.id}"`
  throw new ConflictError(`Client "${client}"'s ${name} is ${theirs}, kept on the client's side (read at \`${own.column}\`, write.refs.${name}.fromClient): an appointment takes the client's own and cannot be booked with "${id}". Send ${found === undefined ? 'no' : 'that or no'} ${name}. Nothing was written.`, [{ path: `/body/${name}`, message: `is not client "${client}"'s own (${theirs}), which their appointments take` }])
}
