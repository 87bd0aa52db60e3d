// What the stored rows say of each state code, whatever the map says it means (issue 27): a
// code whose rows sit beside another booking of the same professional at the same time is the
// clinic's cancellation (the desk books the freed slot again and keeps the cancelled row); a
// code held only by past rows while the schedule ahead holds others is a visit's end (done,
// missed), never a booking waiting; and a map reading every stored code as one state says
// nothing at all (a draft whose codes nobody explained). Counts and codes only, never a row.
import type { MappingModel } from '../mapping/model.js'
import type { AppointmentScanRow } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'
import { count } from './table-scan.js'

/** A code's rows beside another booking at least this often, and this many times the other codes' share, reads as a cancellation. */
export const OVERLAP_SHARE = 0.5
export const OVERLAP_RATIO = 3
/** Fewer rows than this tell nothing about a code. */
export const FEWEST_ROWS = 5

interface Tally { n: number, past: number, ahead: number, overlapped: number }

const pointer = (code: string): string => code.replace(/~/g, '~0').replace(/\//g, '~1')
const share = (n: number, of: number): string => `${count(n)} of ${count(of)}`

export class StateEvidence {
  private readonly codes = new Map<string, Tally>()
  /** Rows by professional and start: how many at each, and their codes. */
  private readonly slots = new Map<string, string[]>()

  constructor (private readonly model: MappingModel, private readonly today: string | undefined) {}

  see (row: AppointmentScanRow): void {
    if (row.code === undefined) return
    const t = this.codes.get(row.code) ?? { n: 0, past: 0, ahead: 0, overlapped: 0 }
    this.codes.set(row.code, t)
    t.n++
    if (row.day === undefined) return
    if (this.today !== undefined) {
      if (row.day < this.today) t.past++
      else t.ahead++
    }
    const pro = row.refs.professional
    if (pro === undefined || row.hour === undefined) return
    const key = `${pro}\u0000${row.day}\u0000${row.hour}`
    const here = this.slots.get(key)
    if (here === undefined) this.slots.set(key, [row.code])
    else here.push(row.code)
  }

  report (out: Findings): void {
    const state = this.model.appointment.state
    const map = state.map
    if (map === undefined || this.codes.size === 0) return
    for (const codes of this.slots.values()) {
      if (codes.length < 2) continue
      for (const code of codes) (this.codes.get(code) as Tally).overlapped++
    }
    const all = [...this.codes].sort((a, b) => b[1].n - a[1].n)
    const stateOf = (code: string): string => String(map[code])
    const free = new Set(this.model.states.free)
    const total = (pick: (t: Tally) => number, but: string): number => all.filter(([c]) => c !== but).reduce((s, [, t]) => s + pick(t), 0)
    const place = (code: string): string => `${state.path}/map/${pointer(code)}`

    // One state for every stored code: the map tells nothing apart (cancelled rows would hold their slots).
    const states = new Set(all.map(([c]) => stateOf(c)))
    if (all.length >= 2 && states.size === 1) {
      const only = [...states][0]
      out.problem(`${state.path}/map`, `every stored ${state.column ?? 'state'} code reads as ${only} (${all.map(([c, t]) => `${c} ×${count(t.n)}`).join(', ')}): ` +
        'the map tells no code apart, so cancelled and finished visits would read as the others do' +
        `${this.model.states.free.includes(only) ? '' : ' and keep holding their time'}; say what each code means (docs/cli.md#check)`)
    }

    for (const [code, t] of all) {
      if (t.n < FEWEST_ROWS) continue
      const s = stateOf(code)
      // (a) Rows kept beside the booking that replaced them: a cancellation read as a state that holds its time.
      if (!free.has(s) && t.overlapped >= FEWEST_ROWS) {
        const others = total((x) => x.n, code)
        const rate = t.overlapped / t.n
        const otherRate = others === 0 ? 0 : total((x) => x.overlapped, code) / others
        if (rate >= OVERLAP_SHARE && rate >= otherRate * OVERLAP_RATIO) {
          out.warning(place(code), `${share(t.overlapped, t.n)} rows of code ${code} (read as ${s}, which holds its time) share their professional and start with another appointment, ` +
            `against ${Math.round(otherRate * 100)}% of the other codes' rows: it looks like a cancellation kept beside the booking that replaced it; ` +
            `if so, map it CANCELED (or name ${s} in \`states.free\`), or its rows keep the slot taken`)
        }
      }
      // (b) A booking's state held only by the past, while the schedule ahead holds other codes: a visit's end.
      if ((s === 'WAITING' || s === 'CONFIRMED') && t.ahead === 0 && t.past > 0) {
        const ahead = total((x) => x.ahead, code)
        if (ahead >= FEWEST_ROWS) {
          out.warning(place(code), `all ${count(t.past)} rows of code ${code} (read as ${s}) are before today, while ${count(ahead)} rows of other codes are on or after it: ` +
            `a code no booking ahead holds looks like a visit's end (DONE or MISSED), not a booking ${s === 'WAITING' ? 'waiting' : 'confirmed'}; if so, map it so`)
        }
      }
    }
  }
}
