// Sends each request to every side in the same order and compares every answer with the
// reference side's. Request generators read the reference's answer to choose what to ask
// next (ids, names, phones taken from the data through the API itself), so the list is
// deterministic for a given fixture and seed.
import { compareAnswers, type Answer, type Difference } from './compare.js'
import type { Probe, Side } from './sides.js'

/** A probe, or a probe built from what that side answered before (its own generated ids). */
export type ProbeFor = Probe | ((side: Side) => Probe)

export interface Reply {
  status: number
  /** The reference side's parsed body (undefined when it is not JSON). */
  body: any
  /** Each side's parsed body, by side name: for steps that need a side's own ids. */
  of: (side: Side) => any
}

const parseBody = (a: Answer): any => {
  try { return a.text === '' ? undefined : JSON.parse(a.text) } catch { return undefined }
}

export class Differ {
  readonly differences = new Map<string, Difference[]>()
  requests = 0
  /** Time each side spent answering, by side name (ms). */
  readonly busy = new Map<string, number>()
  /** Requests per section, for the report. */
  readonly perSection = new Map<string, number>()
  /** The reference's statuses: a run of nothing but 404s would compare nothing useful. */
  readonly statuses = new Map<number, number>()
  /** Wall time per section (ms). */
  readonly sectionMs = new Map<string, number>()
  private section = 'misc'

  constructor (readonly sides: Side[]) {
    if (sides.length < 2) throw new Error('a differential run needs a reference side and at least one other')
    for (const s of sides.slice(1)) this.differences.set(s.name, [])
  }

  get reference (): Side { return this.sides[0] }

  /** Names the requests that follow, in counts and messages. */
  begin (section: string): void { this.section = section }

  async ask (probeFor: ProbeFor): Promise<Reply> {
    const probes = this.sides.map((s) => typeof probeFor === 'function' ? probeFor(s) : probeFor)
    const began = performance.now()
    // Sides are separate databases: asking them at once changes nothing but the wall time.
    const answers = await Promise.all(this.sides.map(async (s, i) => {
      const started = performance.now()
      const answer = await s.send(probes[i])
      this.busy.set(s.name, (this.busy.get(s.name) ?? 0) + performance.now() - started)
      return answer
    }))
    this.requests++
    this.sectionMs.set(this.section, (this.sectionMs.get(this.section) ?? 0) + performance.now() - began)
    this.perSection.set(this.section, (this.perSection.get(this.section) ?? 0) + 1)
    this.statuses.set(answers[0].status, (this.statuses.get(answers[0].status) ?? 0) + 1)
    const name = describe(probes[0], this.section)
    for (let i = 1; i < this.sides.length; i++) {
      const found = compareAnswers(name, answers[0], answers[i])
      if (found.length > 0) this.differences.get(this.sides[i].name)?.push(...found)
    }
    const bodies = new Map(this.sides.map((s, i) => [s.name, parseBody(answers[i])]))
    return { status: answers[0].status, body: bodies.get(this.reference.name), of: (s) => bodies.get(s.name) }
  }

  async get (url: string, label?: string): Promise<Reply> {
    return await this.ask({ method: 'GET', url, ...(label !== undefined ? { label } : {}) })
  }

  /** Differences found so far, all sides. */
  get total (): number {
    let n = 0
    for (const list of this.differences.values()) n += list.length
    return n
  }
}

function describe (p: Probe, section: string): string {
  const body = p.body === undefined ? '' : ` ${JSON.stringify(p.body).slice(0, 200)}`
  const headers = p.headers === undefined ? '' : ` ${JSON.stringify(p.headers)}`
  return `[${section}${p.label !== undefined ? `: ${p.label}` : ''}] ${p.method} ${p.url}${body}${headers}`
}
