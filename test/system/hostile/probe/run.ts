// The hostile probe's run: every case against one database's target, in order, each with
// its outcome and time; a case that throws has not held.
import { contentionCases } from './cases-contention.js'
import { connectionCases } from './cases-connection.js'
import { inputCases } from './cases-input.js'
import { processCases } from './cases-process.js'
import { Probe, type Case, type Outcome } from './case.js'
import { Target, type DatabaseKind } from './target.js'

export const CASES: Case[] = [...connectionCases, ...inputCases, ...contentionCases, ...processCases]

export interface Result extends Outcome { case: Case, ms: number }

export async function runProbe (kind: DatabaseKind, pick: (c: Case) => boolean = () => true, report: (r: Result) => void = () => {}): Promise<Result[]> {
  const target = new Target(kind)
  const results: Result[] = []
  try {
    await target.load()
    await target.start()
    const probe = new Probe(target)
    for (const c of CASES.filter(c => (c.only === undefined || c.only.includes(kind)) && pick(c))) {
      const began = performance.now()
      let out: Outcome
      try {
        out = await c.run(probe)
      } catch (e) {
        out = { held: false, got: `threw: ${(e as Error).message.slice(0, 200)}` }
      }
      if (target.server?.exitCode !== null) {
        out = { held: false, got: `${out.got} — the server died: ${target.serverErr.slice(0, 200)}` }
        await target.start()
      }
      const r = { ...out, case: c, ms: performance.now() - began }
      results.push(r)
      report(r)
    }
  } finally {
    await target.close()
  }
  return results
}
