// `ponte check`'s write probe (issue 25 item 6): on both samples and every test database each
// write path is performed by the server's own code and proven stored as the mapping says, and
// afterwards every table holds exactly the rows it held before.
import t from 'tap'
import { checkInstallation } from '../../../src/check/index.js'
import { openSampleOn, SAMPLES } from '../../helpers/app.js'
import { testDialects } from '../../helpers/contract.js'
import { tableContents } from '../../helpers/table-contents.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { openSqlite } from '../../../src/sql/sqlite/driver.js'
import { loadMapping, sampleFixture } from '../../../src/installation.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'

const PATHS = [
  /^POST \/clients: /, /^PATCH \/clients name: /, /^PATCH \/clients email: /, /^PATCH \/clients cpf: /, /^PATCH \/clients birthday: /,
  /^POST \/appointments with every ref: /, /^POST \/appointments with the professional only: /,
  /^PATCH …\/state CONFIRMED: /, /^PATCH …\/state CANCELED: /, /^PATCH …\/state MISSED: /, /^PATCH …\/state DONE: /, /^PATCH …\/time: /
]

for (const dialect of testDialects()) {
  for (const sample of SAMPLES) {
    t.test(`${sample} [${dialect}]`, async (t) => {
      const { inst } = await openSampleOn(sample, dialect)
      t.teardown(async () => { await inst.close() })
      const before = await tableContents(inst.db)
      const report = await checkInstallation(inst, { budgetMs: 2000 })
      const after = await tableContents(inst.db)
      const said = report.findings.map((f) => f.message)
      for (const path of PATHS) {
        const found = report.findings.filter((f) => path.test(f.message))
        t.same(found.map((f) => f.severity), ['ok'], `${path.source}: ${found.map((f) => f.message).join(' | ')}`)
      }
      t.ok(said.filter((m) => /; rolled back$/.test(m)).every((m) => /as stored|read back/.test(m)), 'each path read its rows back')
      t.same(Object.keys(after), Object.keys(before), 'the same tables')
      for (const table of Object.keys(before)) t.same(after[table], before[table], `${table}: every row as it was (${before[table].length} rows)`)
      t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n'))
    })
  }
}

t.test('--no-write-probe: nothing is performed, and the report says writes were not proven', async (t) => {
  const { inst } = await openSampleOn(SAMPLES[0], 'sqlite')
  t.teardown(async () => { await inst.close() })
  const report = await checkInstallation(inst, { budgetMs: 1000, writeProbe: false })
  t.notOk(report.findings.some((f) => /^(POST|PATCH) /.test(f.message)), 'no write path performed')
  t.ok(report.lines.some((l) => /^! .*writes not proven: the write probe was turned off \(--no-write-probe\)/.test(l)), 'a warning says so')
  t.ok(report.ok, 'a warning, not a problem')
})

t.test('a login that may only read: writes not proven, a warning and no crash', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-read-only-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'clinic.db')
  createSqliteFromFixture(sampleFixture(SAMPLES[1]), file)
  const db = openSqlite(file, { readonly: true })
  t.teardown(async () => { await db.close() })
  const model = loadMapping(SAMPLES[1])
  const report = await checkInstallation({ model, db, compiled: compileMapping(model, db.dialect), close: async () => {} }, { budgetMs: 500 })
  t.ok(report.lines.some((l) => /^! .*writes not proven: read-only login/.test(l)), report.lines.join('\n'))
  t.notOk(report.findings.some((f) => /^(POST|PATCH) /.test(f.message)), 'no path claims to be proven')
  t.ok(report.ok, 'a warning, not a problem')
})
