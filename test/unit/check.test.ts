// `ponte check` against real SQLite copies: what clinic IT is told about their mapping.
import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSample } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'

async function check (t: Test, name: string, edit: (yaml: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-check-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, `${name}.yaml`)
  writeFileSync(file, edit(readFileSync(`mappings/${name}.yaml`, 'utf8')).replace('$schema: ../mapping.schema.json', ''))
  const inst = await openSample(file, { structural: 'skip' })
  t.teardown(() => inst.close())
  return await checkInstallation(inst, '2026-11-22')
}

t.test('both samples pass', async (t) => {
  for (const name of ['clinica-sorriso', 'northwind-health']) {
    const report = await check(t, name, (y) => y)
    t.ok(report.ok, `${name}: ${report.lines.filter((l) => l.startsWith('✗')).join('; ')}`)
    t.ok(report.lines.some((l) => /^✓ professional: \d+ rows$/.test(l)))
    t.ok(report.lines.some((l) => /^✓ appointment: [\d,]+ rows, all readable$/.test(l)))
    t.ok(report.lines.includes('✓ appointment write: mapped'))
  }
})

t.test('a column the database does not have is reported, not thrown', async (t) => {
  const report = await check(t, 'clinica-sorriso', (y) => y.replace('      name: NOME\n', '      name: NOME_QUE_NAO_EXISTE\n'))
  t.notOk(report.ok)
  t.ok(report.lines.some((l) => /^✗ \S+clinica-sorriso\.yaml:\d+:\d+: professional fields\.name: column `NOME_QUE_NAO_EXISTE` does not exist in table/.test(l)), report.lines.join('\n'))
})

t.test('stored state codes the mapping does not map are listed', async (t) => {
  const report = await check(t, 'northwind-health', (y) => y.replace(", '5': DONE }", ' }'))
  t.notOk(report.ok)
  t.ok(report.lines.some((l) => /appointment state\.map: stored status 5 is not mapped: \d+ rows, e\.g\. id \d+$/.test(l)), report.lines.join('\n'))
})

t.test('a mapping without write blocks still checks, and says which writes cannot work', async (t) => {
  // Sorriso's state comes from rules, which cannot be reversed: without write.states nothing says what to store.
  const report = await check(t, 'clinica-sorriso', (y) => y.replace(/\n {4}write:\n(?: {6}.*\n| {8}.*\n| {10}.*\n)+/g, '\n'))
  // Without write.set a new patient row leaves the columns the legacy system requires empty: POST /clients would fail.
  t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message.match(/`(\w+)`/)?.[1]), ['DT_CADASTRO', 'USUARIO_CAD'])
  t.ok(report.lines.some((l) => /^! \S+:\d+:\d+: appointment.*writes not possible/.test(l)), report.lines.join('\n'))
})
