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
  /** Read through an appointment join the booking does not write (no `firstOf`): the appointment's is the client's own, never stored on it. */
  held?: boolean
}

type EntryDoc = { fromClient?: string | { column: string, nullIf?: LiteralValue[], owned?: boolean }, firstOf?: string | { join: string, owner: string }, otherwise?: string | number }

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
    else if (joined && appointment.write?.slot?.join === ref.column.split('.')[0]) fail(at, `${name} is read through the slot, which a booking finds by its time`)
    // Read through a join the booking does not write: the client's own, kept on the client's side.
    else if (joined && entry?.firstOf === undefined && !hangsFromClient(appointment, ref.column.split('.')[0])) fail(at, `${name} is read through the join \`${ref.column.split('.')[0]}\` without \`firstOf\`, so the booking does not write it; nor is that join the client's side (on the appointment's client column, refs.client), whose value would be the client's own`)
    else if (joined && entry?.firstOf === undefined && f.owned) fail(at, `${name} is read through the join \`${ref.column.split('.')[0]}\`, not written by the booking: it is the client's own already, and \`owned\` says nothing more`)
    else if (joined && entry?.firstOf === undefined && entry?.otherwise !== undefined) fail(at, `${name} is read through the join \`${ref.column.split('.')[0]}\`, not written by the booking: an appointment's is the client's own, so a client with none has none, and \`otherwise\` has no column to be stored in`)
    const dot = f.column.indexOf('.')
    if (dot >= 0 && !(f.column.slice(0, dot) in client.joins)) fail(at, `\`${f.column}\`: no join called \`${f.column.slice(0, dot)}\` in ${client.path}/joins`)
    if (f.owned && typeof entry?.firstOf === 'object') fail(at, '`owned` with `firstOf.owner`: the owner column already keeps a sent one to the client\'s rows; keep one of them')
  }
}

/** Whether a join of the appointment reaches its row through the appointment's client column: what it reads is the client's. */
function hangsFromClient (appointment: Sides['appointment'], alias: string): boolean {
  const client = appointment.refs.client?.column
  let at: string | undefined = alias
  // Up the `from` chain to the join on the appointment's own row; a join appears once on it.
  for (let depth = 0; at !== undefined && depth <= Object.keys(appointment.joins).length; depth++) {
    const join: JoinDoc | undefined = appointment.joins[at]
    if (join === undefined) return false
    if (join.from === undefined) return client !== undefined && !client.includes('.') && Object.keys(join.on).some((local) => local.toLowerCase() === client.toLowerCase())
    at = join.from
  }
  return false
}
