// Where each state code's sampled rows fall, for the codes nothing names (issue 27): rows
// before today or from today on, and rows sharing their professional and start with another
// row (a cancelled booking the desk keeps beside the one that took its slot). The same
// evidence `ponte check` weighs over the whole table (check/state-evidence.ts).
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Samples } from './sample.js'
import type { Start } from './start.js'
import { asText, toIso } from './values.js'

export interface CodeTally { n: number, past: number, ahead: number, overlapped: number }

/** Sampled rows by code (trimmed), with a start read. */
export type CodeEvidence = Map<string, CodeTally>

export function codeEvidence (t: LiveTable, state: LiveColumn, start: Start | undefined, professional: LiveColumn | undefined, samples: Samples, today: string): CodeEvidence {
  const out: CodeEvidence = new Map()
  const at = start?.via ? undefined : start?.datetime ?? start?.date
  if (at === undefined) return out
  const hourAt = start?.datetime ? undefined : start?.hour
  const slots = new Map<string, string[]>()
  for (const r of samples.records(t) ?? []) {
    const raw = r[state.name.toLowerCase()]
    const when = r[at.name.toLowerCase()]
    const iso = when === null || when === undefined ? undefined : toIso(asText(when))
    if (raw === null || raw === undefined || iso === undefined) continue
    const code = asText(raw).trim()
    const tally = out.get(code) ?? { n: 0, past: 0, ahead: 0, overlapped: 0 }
    out.set(code, tally)
    tally.n++
    const day = iso.slice(0, 10)
    if (day < today) tally.past++
    else tally.ahead++
    const pro = professional === undefined ? undefined : r[professional.name.toLowerCase()]
    const hour = hourAt === undefined ? iso.slice(11, 16) : asText(r[hourAt.name.toLowerCase()] ?? '').slice(0, 5)
    if (pro === null || pro === undefined || hour === '') continue
    const key = `${asText(pro)}\u0000${day}\u0000${hour}`
    slots.set(key, [...slots.get(key) ?? [], code])
  }
  for (const codes of slots.values()) {
    if (codes.length > 1) for (const c of codes) (out.get(c) as CodeTally).overlapped++
  }
  return out
}
