// The hostile probe, run from outside: `npx tsx scripts/hostile-probe.ts --database
// sqlite|mysql|postgres [--case TEXT[,TEXT…]]` loads the sample clinic into that database, serves it,
// and prints each hostile case with what was expected, what came back and whether it held.
// Exit 1 when any case did not hold. The cases: test/system/hostile/probe/; docs/testing.md.
import { parseArgs } from 'node:util'
import { runProbe } from '../test/system/hostile/probe/run.js'
import { DATABASE_KINDS, type DatabaseKind } from '../test/system/hostile/probe/target.js'

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, case: { type: 'string' } } })
const kind = values.database as DatabaseKind
if (!DATABASE_KINDS.includes(kind)) {
  console.error(`--database must be one of ${DATABASE_KINDS.join(', ')}`)
  process.exit(2)
}
const needles = values.case?.toLowerCase().split(',')
const results = await runProbe(kind, c => needles === undefined || needles.some(n => c.name.toLowerCase().includes(n)), r => {
  const known = r.held ? undefined : r.case.known?.(kind)
  console.log(`${r.held ? 'held  ' : 'FAILED'} ${r.case.name} (${Math.round(r.ms)} ms)\n       expects: ${r.case.expects}\n       got: ${r.got}\n       kept by: ${r.case.keptBy}${known !== undefined ? `\n       known: ${known}` : ''}`)
})
const held = results.filter(r => r.held).length
console.log(`\n${kind}: ${held}/${results.length} held`)
process.exit(held === results.length ? 0 : 1)
