// A booking ref defaulting to the booked client's own value (`write.refs.<ref>.fromClient`):
// the convênio on the patient's row, the plan reached through the patient's coverage rows.
// Here: its one normal form, and what the mapping must say for it to apply (refused at load).
import type { JoinDoc, LiteralValue } from './schema.js'
import type { EntityName, Value } from './model.js'
import { refWrittenAs } from './written-ref.js'

/** `fromClient` in its one form. */
export interface FromClient {
  /** A column of the client's row, or `alias.COLUMN` of a client join. */
  column: string
  nullIf: LiteralValue[]
  owned: boolean
  path: string
}

type EntryDoc = { fromClient?: string | { column: string, nullIf?: LiteralValue[], owned?: boolean }, firstOf?: string | { join: string, owner: string } }

/** Only refs decided after the hours and the length: the rest are read before the booking's transaction. */
export const FROM_CLIENT_REFS: readonly EntityName[] = ['healthInsurance', 'plan']

export function fromClientOf (entry: EntryDoc | undefined, path: string): FromClient | undefined {
  const f = entry?.fromClient
  if (f === undefined) return undefined
  return typeof f === 'string'
    ? { column: f, nullIf: [], owned: false, path }
    : { column: f.column, nullIf: f.nullIf ?? [], owned: f.owned === true, path }
}

interface Sides {
  appointment: { path: string, openSlots?: unknown, refs: Partial<Record<EntityName, Value>>, joins: Record<string, JoinDoc>, write?: { refs?: Partial<Record<string, EntryDoc | undefined>>, slot?: { join?: string } } }
  client: { joins: Record<string, JoinDoc>, path: string }
}

/** Each `fromClient` the booking cannot apply, at its place. */
export function checkFromClient ({ appointment, client }: Sides, fail: (path: string, message: string) => void): void {
  for (const [name, entry] of Object.entries(appointment.write?.refs ?? {})) {
    const at = `${appointment.path}/write/refs/${name}/fromClient`
    const f = fromClientOf(entry, at)
    if (!f) continue
    if (!FROM_CLIENT_REFS.includes(name as EntityName)) {
      fail(at, `a booking's ${name} decides its hours or length, read before the booking's transaction; \`fromClient\` is for ${FROM_CLIENT_REFS.join(' and ')}`)
      continue
    }
    if (appointment.openSlots !== undefined) { fail(at, 'a booking claiming an open slot (openSlots) does not read the client\'s own yet: send the ref, or use `otherwise`'); continue }
    const read = appointment.refs[name as EntityName]
    if (!read) { fail(at, `the appointment has no ${name} (refs.${name}) for the client's own to be stored in`); continue }
    const ref = refWrittenAs(read)
    const joined = ref.column?.includes('.') === true
    if (ref.column === undefined) fail(at, `${name} is read from rules, a template or an expression (at ${ref.path}): no one column stores the client's own`)
    else if (joined && entry?.firstOf === undefined) fail(at, `${name} is read through the join \`${ref.column.split('.')[0]}\` without \`firstOf\`, so the booking does not write it`)
    else if (joined && appointment.write?.slot?.join === ref.column.split('.')[0]) fail(at, `${name} is read through the slot, which a booking finds by its time`)
    const dot = f.column.indexOf('.')
    if (dot >= 0 && !(f.column.slice(0, dot) in client.joins)) fail(at, `\`${f.column}\`: no join called \`${f.column.slice(0, dot)}\` in ${client.path}/joins`)
    if (f.owned && typeof entry?.firstOf === 'object') fail(at, '`owned` with `firstOf.owner`: the owner column already keeps a sent one to the client\'s rows; keep one of them')
  }
}
