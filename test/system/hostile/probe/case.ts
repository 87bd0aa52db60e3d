// One hostile case: what a demanding caller expects, how to provoke it, and the test of
// `npm test` that keeps it; with the probe's context (the target and the free slots and
// fresh clients the booking cases use up).
import type { DatabaseKind, Target } from './target.js'
import { call } from './wire.js'

export interface Outcome { held: boolean, got: string }

export interface Case {
  name: string
  /** What a demanding caller expects, in their words. */
  expects: string
  /** The test file of `npm test` that keeps this case. */
  keptBy: string
  /** Databases the case applies to; all when absent. */
  only?: DatabaseKind[]
  /** Why the case is known not to hold on a database, its root outside the HTTP layer (reported, a todo in the test). */
  known?: (kind: DatabaseKind) => string | undefined
  run: (p: Probe) => Promise<Outcome>
}

export interface Slot { date: string, hour: string, professional: string, location?: string }

export class Probe {
  private slots: Slot[] = []
  private clients = 0

  constructor (readonly t: Target) {}

  get base (): string { return this.t.base }

  /** Free slots from `/availability`, a few days ahead, one per call. */
  async slot (where: (s: Slot) => boolean = () => true): Promise<Slot> {
    if (this.slots.length === 0) {
      const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
      const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)
      const a = await call(this.base, 'GET', `/availability?start=${from}&end=${to}`)
      if (a.status !== 200) throw new Error(`availability: ${a.status} ${a.text}`)
      this.slots = a.json.map((s: any) => ({ date: s.date, hour: s.hour, professional: s.professional.id, location: s.location?.id }))
    }
    const i = this.slots.findIndex(where)
    if (i < 0) throw new Error('no free slot left for the probe')
    const [s] = this.slots.splice(i, 1)
    // The professional's other slots at that hour are taken by this booking too.
    this.slots = this.slots.filter(o => !(o.date === s.date && o.hour === s.hour && o.professional === s.professional))
    return s
  }

  /** A client registered for one case, so that no two cases' bookings overlap. */
  async client (): Promise<string> {
    this.clients++
    const phone = `+55119${String(70000000 + process.pid % 1000 * 1000 + this.clients).padStart(8, '0')}`
    const a = await call(this.base, 'POST', '/clients', { body: { name: `Probe Client ${this.clients}`, phone } })
    if (a.status !== 200) throw new Error(`POST /clients: ${a.status} ${a.text}`)
    return a.json.id
  }

  /** Runs `act` and says whether the watched tables are as they were. */
  async unchanged<T> (act: () => Promise<T>): Promise<[T, boolean]> {
    const before = await this.t.fingerprint()
    const result = await act()
    return [result, before === await this.t.fingerprint()]
  }
}

/** The median of `n` timings of `/health`: one sample on a shared machine says little. */
export async function healthMs (base: string, n = 5): Promise<{ ms: number, ok: boolean }> {
  const samples: number[] = []
  let ok = true
  for (let i = 0; i < n; i++) {
    const a = await call(base, 'GET', '/health', { key: null })
    ok &&= a.status === 200
    samples.push(a.ms)
  }
  samples.sort((a, b) => a - b)
  return { ms: samples[Math.floor(n / 2)], ok }
}

/** Statuses counted, as `200×1 409×19`. */
export function tally (statuses: number[]): string {
  const counts = new Map<number, number>()
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')
}

/** An outcome from a list of checks, each a name and whether it held. */
export function outcome (checks: Record<string, boolean>, got: string): Outcome {
  const failed = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name)
  return { held: failed.length === 0, got: failed.length === 0 ? got : `${got} — failed: ${failed.join(', ')}` }
}
