// Issue 12: the same few thousand requests sent to each sample served from SQLite, MariaDB
// and PostgreSQL must give the same statuses and bodies, so the suite can stand in for the
// SQL Server we cannot run. SQLite is the reference. PONTE_TEST_DIALECTS (comma list, default
// `sqlite,mysql,postgres`) chooses the others; a dialect asked for whose server cannot be
// reached fails here with the reason, it is never skipped. With SQLite alone, a second
// SQLite copy is compared, so the run still proves the harness end to end.
import t from 'tap'
import { SAMPLES } from '../../helpers/app.js'
import { Differ } from '../../helpers/differential/differ.js'
import { openSide, requestedDialects, type Dialect, type Side } from '../../helpers/differential/sides.js'
import { runSample } from '../../helpers/differential/run.js'
import { report } from '../../helpers/differential/report.js'

const others = requestedDialects().filter((d) => d !== 'sqlite')

interface Outcome {
  /** Dialects that could not be opened, with the reason. */
  unopened: Array<{ dialect: Dialect, reason: string }>
  opened: Array<{ name: string, dialect: string, expected: Dialect }>
  differ?: Differ
  lines: string[]
  error?: Error
}

async function compareSample (mapping: string, sample: string): Promise<Outcome> {
  const out: Outcome = { unopened: [], opened: [], lines: [] }
  const sides: Side[] = []
  try {
    sides.push(await openSide('sqlite', mapping))
    for (const dialect of others) {
      const started = performance.now()
      try {
        const side = await openSide(dialect, mapping)
        sides.push(side)
        out.opened.push({ name: side.name, dialect: side.inst.db.dialect.name, expected: dialect })
        out.lines.push(`${sample}: ${dialect} opened in ${Math.round(performance.now() - started)} ms`)
      } catch (err) {
        out.unopened.push({ dialect, reason: (err as Error).message })
      }
    }
    if (others.length === 0) sides.push(await openSide('sqlite', mapping, 'sqlite#2'))
    if (sides.length < 2) return out
    out.differ = new Differ(sides)
    const started = performance.now()
    await runSample(out.differ, mapping)
    out.lines.push(...report(out.differ, sample, performance.now() - started))
  } catch (err) {
    out.error = err as Error
  } finally {
    for (const s of sides) await s.close().catch(() => {})
  }
  return out
}

// Both samples at once: while one waits on a server the other runs, halving the wall time.
const runs = new Map(SAMPLES.map((mapping) => {
  const sample = mapping.replace(/^.*\//, '').replace(/\.ya?ml$/, '')
  return [sample, compareSample(mapping, sample)]
}))

for (const [sample, run] of runs) {
  t.test(sample, async (t) => {
    const out = await run
    for (const line of out.lines) t.comment(line)
    for (const u of out.unopened) t.fail(u.reason)
    // A URL routed to the wrong driver would compare SQLite with itself and prove nothing.
    for (const o of out.opened) t.equal(o.dialect, o.expected, `${sample}: the ${o.expected} side runs the ${o.expected} dialect`)
    if (out.error) throw out.error
    const d = out.differ
    if (!d) return
    t.ok(d.requests >= 1000, `${sample}: ${d.requests} requests sent to ${d.sides.map((s) => s.name).join(', ')}`)
    for (const side of d.sides.slice(1)) {
      const diffs = d.differences.get(side.name) ?? []
      t.equal(diffs.length, 0, `${sample}: ${side.name} answers all ${d.requests} requests as sqlite does`)
    }
  })
}
