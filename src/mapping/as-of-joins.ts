// A join's `first.asOf` compares the joined row with the appointment row it hangs from: only
// the appointment's reads join that way, so elsewhere it would compare with something else.
import type { JoinDoc, MappingDoc } from './schema.js'

type Fail = (path: string, message: string) => void

export function checkAsOfJoins (doc: MappingDoc, fail: Fail): void {
  for (const { joins, at } of joinMaps(doc, '')) {
    for (const [alias, j] of Object.entries(joins)) {
      if (j?.first?.asOf === undefined) continue
      const place = `${at}/${pointer(alias)}/first/asOf`
      if (at !== '/resources/appointment/joins') fail(place, '`asOf` keeps the rows in force on the appointment\'s date: only a join of the appointment takes it')
    }
  }
  const w = doc.resources.appointment.write
  const written = [...w?.slot ? [{ join: w.slot.join, by: 'write.slot' }] : [], ...(w?.stateRows ?? []).map((r, i) => ({ join: r.join, by: `write.stateRows/${i}` }))]
  for (const { join, by } of written) {
    if (doc.resources.appointment.joins?.[join]?.first?.asOf !== undefined) fail(`/resources/appointment/joins/${pointer(join)}/first/asOf`, `${by} writes through this join, which would then find a row by the appointment's date: give it a join without \`asOf\``)
  }
}

/** Every `joins` map of the mapping and its place. */
function joinMaps (node: unknown, path: string): { joins: Record<string, JoinDoc>, at: string }[] {
  if (node === null || typeof node !== 'object') return []
  return Object.entries(node).flatMap(([k, v]) => {
    const at = `${path}/${pointer(k)}`
    const here = k === 'joins' && v !== null && typeof v === 'object' && !Array.isArray(v) ? [{ joins: v as Record<string, JoinDoc>, at }] : []
    return [...here, ...joinMaps(v, at)]
  })
}

function pointer (segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}
