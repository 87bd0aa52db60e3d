// Yes/no columns (`enabled`) read through `trueValues`, and through `true`, its old spelling,
// which editors flag because YAML reads the key `true:` as a boolean: both spellings give
// the same answers, giving both is refused at its line, check warns at the line of each old
// spelling, and no sample or documented mapping still holds a key the YAML language server
// takes for a boolean.
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'
import { isMap, isScalar, parseAllDocuments, visit } from 'yaml'
import { scratchInstallation } from '../helpers/scratch.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const TABLES = `CREATE TABLE PAC (ID INTEGER PRIMARY KEY, NOME TEXT);
  CREATE TABLE AG (ID INTEGER PRIMARY KEY, DIA TEXT, HORA TEXT, PAC INTEGER);
  CREATE TABLE MED (ID INTEGER PRIMARY KEY, NOME TEXT, ATIVO TEXT);
  INSERT INTO MED VALUES (1, 'Ana', 'S'), (2, 'Bruno', 'N'), (3, 'Caio', ' s '), (4, 'Dora', NULL), (5, 'Eva', 'ATIVO'), (6, 'Fábio', 'X');
  CREATE TABLE SRV (ID INTEGER PRIMARY KEY, NOME TEXT, INATIVO INTEGER);
  INSERT INTO SRV VALUES (1, 'Limpeza', 0), (2, 'Canal', 1), (3, 'Clareamento', 9);`

/** The sample clinic's shape, its yes/no converters written with `key`. */
const mapping = (key: string) => `
version: 1
installation: true-values
resources:
  appointment:
    table: AG
    key: ID
    start: { date: DIA, hour: HORA }
    state: { value: WAITING }
    refs: { client: PAC }
  client: { table: PAC, key: ID, fields: { name: NOME } }
  professional:
    table: MED
    key: ID
    fields: { name: NOME }
    enabled: { column: ATIVO, ${key}: ['S', ATIVO] }
  service:
    table: SRV
    key: ID
    fields: { name: NOME }
    enabled: { column: INATIVO, ${key}: [1, 9], invert: true }
`

const READS = ['/professionals', '/professionals?enabled=true', '/professionals?enabled=false', '/services?enabled=true', '/services?enabled=false']
const ids = (body: Array<{ id: string }>) => body.map((r) => r.id)

t.test('trueValues and true give the same reads', async (t) => {
  const answers: Record<string, unknown[]> = {}
  for (const key of ['trueValues', 'true']) {
    const { get } = await scratchInstallation(t, TABLES, mapping(key))
    answers[key] = await Promise.all(READS.map(async (url) => await get(url)))
  }
  t.same(answers.true, answers.trueValues, `${READS.length} reads, status and body alike`)
  const [all, enabled, disabled, services, closed] = answers.trueValues as Array<{ status: number, body: Array<{ id: string }> }>
  t.equal(all.status, 200)
  t.same(ids(enabled.body), ['1', '3', '4', '5'], "'S', ' s ' and 'ATIVO' are yes: trimmed, in any case; NULL leaves enabled")
  t.same(ids(disabled.body), ['2', '6'], "'N' and 'X' are no")
  t.same(ids(services.body), ['1'], 'inverted: the flag holding a yes value disables')
  t.same(ids(closed.body), ['2', '3'])
})

t.test('both spellings in one value: refused, at the line of the old one', async (t) => {
  const yaml = mapping('trueValues').replace("ATIVO, trueValues: ['S', ATIVO] }", "ATIVO, trueValues: ['S'], true: ['S'] }")
  const error = (() => { try { buildModel(parseMapping(yaml, 'both.yaml')) } catch (err) { return err } })()
  t.type(error, MappingError)
  const line = yaml.split('\n').findIndex((l) => l.includes("true: ['S'] }")) + 1
  t.match(String((error as Error).message), new RegExp(`^both\\.yaml:${line}:\\d+: /resources/professional/enabled/true: has true and trueValues: give trueValues only`))
})

t.test('check warns at its line of each old spelling, naming the new key; none for trueValues', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-true-values-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(db)
  raw.exec(TABLES)
  raw.close()
  const warned = async (key: string): Promise<string[]> => {
    const file = join(dir, key === 'true' ? 'old.yaml' : 'new.yaml')
    writeFileSync(file, mapping(key))
    const inst = await openInstallation(file, `sqlite:${db}`)
    try {
      const report = await checkInstallation(inst, { today: '2026-11-25', writeProbe: false })
      return report.lines.filter((l) => l.startsWith('! ') && /trueValues|`true`/.test(l))
    } finally {
      await inst.close()
    }
  }
  const text = mapping('true')
  const lines = ['ATIVO, true:', 'INATIVO, true:'].map((s) => text.split('\n').findIndex((l) => l.includes(s)) + 1)
  const old = await warned('true')
  t.equal(old.length, 2, 'one warning per old spelling')
  lines.forEach((line, i) => t.match(old[i], new RegExp(`^! \\S*old\\.yaml:${line}:\\d+: \\w+ enabled\\.true: \`true:\` is the old spelling of \`trueValues:\`, still read: write \`trueValues:\``), `at line ${line}`))
  t.same(await warned('trueValues'), [], 'the new spelling: no warning')
})

/** Map keys the YAML language server (YAML 1.2, its default) takes for booleans: `true`, `false`. */
function booleanKeys (text: string): string[] {
  const found: string[] = []
  for (const doc of parseAllDocuments(text, { version: '1.2' })) {
    if (!('contents' in doc)) continue
    visit(doc, { Pair (_k, pair) { if (isScalar(pair.key) && typeof pair.key.value === 'boolean') found.push(String(pair.key.source ?? pair.key.value)) } })
  }
  return found
}

t.test('no sample mapping, and no YAML in the README or the mapping guide, has a key the YAML language server reads as a boolean', async (t) => {
  t.same(booleanKeys('enabled: { column: INATIVO, true: [S], invert: true }'), ['true'], 'the old spelling is found')
  t.same(booleanKeys('enabled: { column: INATIVO, trueValues: [S], invert: true }'), [], 'the new one is not')
  const files = ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']
  for (const file of files) t.same(booleanKeys(readFileSync(file, 'utf8')), [], file)
  let blocks = 0
  for (const file of ['README.md', 'docs/mapping.md', 'docs/going-live.md']) {
    for (const [, block] of readFileSync(file, 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)) {
      blocks++
      t.same(booleanKeys(block), [], `${file}: ${block.split('\n')[0]}`)
    }
    // Inline examples in tables and prose (`{ column: X, true: [...] }`) as well.
    t.notMatch(readFileSync(file, 'utf8'), /[{,]\s*true:\s*\[/, `${file}: no inline \`true: [\``)
  }
  t.ok(blocks > 3, `${blocks} YAML blocks read`)
  t.ok(isMap(parseAllDocuments('a: 1')[0].contents), 'the reader reads maps')
})
