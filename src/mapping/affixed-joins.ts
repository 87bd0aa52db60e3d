// A join pair's `prefix`/`suffix` (compile/join-on.ts) finds rows Ponte reads. A write through
// the join would create a row, or point at one, known only by the parent's column, which
// holds the text around the value: such joins take plain columns. An empty text says nothing.
import type { JoinOnDoc, MappingDoc } from './schema.js'

type Fail = (path: string, message: string) => void

export function checkAffixedJoins (doc: MappingDoc, fail: Fail): void {
  emptyTexts(doc, '', fail)
  for (const { on, at, write } of writtenThrough(doc)) {
    for (const [local, c] of Object.entries(on ?? {})) {
      if (typeof c === 'string') continue
      const text = c.prefix !== undefined ? 'prefix' : c.suffix !== undefined ? 'suffix' : undefined
      if (text === undefined) continue
      fail(`${at}/${pointer(local)}/${text}`, `a ${text} joins rows Ponte only reads: ${write} writes through this join, and would have to create or point at a row known only by \`${local}\`, which holds \`${c.column}\` with text around it; join on plain columns here (a second join with the ${text} may read the same table)`)
    }
  }
}

/** Every `on` entry with a `prefix: ''` or `suffix: ''`, wherever an `on` is (joins, `collect`). */
function emptyTexts (node: unknown, path: string, fail: Fail): void {
  if (node === null || typeof node !== 'object') return
  for (const [k, v] of Object.entries(node)) {
    const at = `${path}/${pointer(k)}`
    if (k === 'on' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [local, c] of Object.entries(v as Record<string, unknown>)) {
        for (const text of ['prefix', 'suffix']) {
          if (c === null || typeof c !== 'object' || (c as Record<string, unknown>)[text] !== '') continue
          fail(`${at}/${pointer(local)}/${text}`, `an empty ${text} adds nothing: give the text \`${local}\` holds ${text === 'prefix' ? 'before' : 'after'} the joined value, or leave \`${text}\` out`)
        }
      }
    }
    emptyTexts(v, at, fail)
  }
}

/** The `on` of every join (or `collect`) a write goes through, its place, and the write's. */
function writtenThrough (doc: MappingDoc): { on: JoinOnDoc | undefined, at: string, write: string }[] {
  const client = doc.resources.client
  const appointment = doc.resources.appointment
  const out: { on: JoinOnDoc | undefined, at: string, write: string }[] = []
  const clientJoin = (alias: string, write: string): void => { out.push({ on: client.joins?.[alias]?.on, at: `/resources/client/joins/${pointer(alias)}/on`, write }) }
  const appointmentJoin = (alias: string, write: string): void => { out.push({ on: appointment.joins?.[alias]?.on, at: `/resources/appointment/joins/${pointer(alias)}/on`, write }) }
  for (const when of ['before', 'after'] as const) {
    client.write?.[when]?.forEach((r, i) => {
      const write = `resources/client/write/${when}/${i}`
      if (r.join !== undefined) clientJoin(r.join, write)
      else {
        const n = r.phones ?? 0
        const phone = client.phones?.[n]
        if (phone !== undefined && typeof phone === 'object' && phone.collect) out.push({ on: phone.collect.on, at: `/resources/client/phones/${n}/collect/on`, write })
      }
    })
  }
  const w = appointment.write
  if (w?.slot !== undefined) appointmentJoin(w.slot.join, 'resources/appointment/write/slot')
  w?.stateRows?.forEach((r, i) => { appointmentJoin(r.join, `resources/appointment/write/stateRows/${i}`) })
  for (const [ref, entry] of Object.entries(w?.refs ?? {})) {
    const firstOf = entry?.firstOf
    if (firstOf !== undefined) appointmentJoin(typeof firstOf === 'string' ? firstOf : firstOf.join, `resources/appointment/write/refs/${ref}/firstOf`)
  }
  return out
}

const pointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1')
