// The hostile probe's cases that no other suite keeps (scripts/hostile-probe.ts runs them all):
// each run against a real Ponte process on every test dialect, as the probe runs it. Every
// case of the probe names the test that keeps it; that file must exist.
import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { testDialects } from '../../helpers/contract.js'
import { CASES, runProbe } from './probe/run.js'
import { ROOT } from './probe/target.js'

const HERE = 'test/system/hostile/probe.test.ts'

t.test('every case of the probe is kept by a test that exists', async (t) => {
  t.ok(CASES.length >= 61, `${CASES.length} cases`)
  for (const c of CASES) t.ok(existsSync(join(ROOT, c.keptBy)), `${c.name}: ${c.keptBy}`)
})

for (const dialect of testDialects()) {
  t.test(`the cases only the probe keeps [${dialect}]`, async (t) => {
    const results = await runProbe(dialect, c => c.keptBy === HERE)
    t.ok(results.length > 0, 'some cases ran')
    for (const r of results) {
      const known = r.case.known?.(dialect)
      t.ok(r.held, `${r.case.name}: ${r.case.expects}`, { got: r.got, ...(known !== undefined ? { todo: known } : {}) })
    }
  })
}
