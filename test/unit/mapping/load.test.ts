import t from 'tap'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_MAPPING_BYTES, parseMapping, readMappingFile } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { MappingError, type MappingIssue } from '../../../src/mapping/errors.js'
import { mappingJsonSchemaText } from '../../../src/mapping/json-schema.js'

const base = `version: 1
installation: test
resources:
  appointment:
    table: dbo.AGENDA
    key: ID
    start: { date: DATA, hour: HORA }
    state: { column: ST, map: { A: WAITING } }
  client:
    table: dbo.PAC
    key: ID
    fields: { name: NOME }
`

function issues (text: string) {
  try {
    buildModel(parseMapping(text, 'm.yaml'))
  } catch (err) {
    if (err instanceof MappingError) return err.issues
    throw err
  }
  return []
}

t.test('a minimal mapping loads, with defaults filled', async (t) => {
  const model = buildModel(parseMapping(base, 'm.yaml'))
  t.equal(model.timezone, 'America/Sao_Paulo')
  t.same(model.states.values, ['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE'])
  t.equal(model.states.initial, 'WAITING')
  t.same(model.appointment.key, { column: 'ID', type: 'int', parts: [{ column: 'ID', type: 'int' }], separator: '-' })
  t.same(model.client.fields.name, { column: 'NOME', path: '/resources/client/fields/name' })
})

t.test('schema errors name file, line, path and what was expected', async (t) => {
  const bad = base.replace('key: ID\n    start', 'key: 12\n    start')
  const [issue] = issues(bad)
  t.equal(issue.file, 'm.yaml')
  t.equal(issue.path, '/resources/appointment/key')
  t.equal(issue.line, 6)
  t.match(issue.message, /string or object/)
  t.match(new MappingError([issue]).message, /^m\.yaml:6:\d+: \/resources\/appointment\/key: /)
})

t.test('an unknown key is reported at its own line', async (t) => {
  const [issue] = issues(base.replace('    state:', '    stat: X\n    state:'))
  t.equal(issue.path, '/resources/appointment/stat')
  t.equal(issue.line, 8)
  t.match(issue.message, /unknown key/)
})

t.test('YAML syntax errors carry a position', async (t) => {
  const [issue] = issues('version: 1\nresources: [a,\n')
  t.ok(issue.line !== undefined)
})

t.test('the wrong version is refused', async (t) => {
  const [issue] = issues(base.replace('version: 1', 'version: 2'))
  t.equal(issue.path, '/version')
})

t.test('semantic checks', async (t) => {
  t.match(issues(base.replace('start: { date: DATA, hour: HORA }', 'start: { date: DATA }'))[0],
    { path: '/resources/appointment/start', message: /datetime.*date.*hour/ })
  t.match(issues(base.replace('map: { A: WAITING }', 'map: { A: ARRIVED }'))[0],
    { path: '/resources/appointment/state/map/A', message: /ARRIVED.*not one of the states/ })
  t.match(issues(base.replace('fields: { name: NOME }', 'fields: { name: { column: NOME, template: "{A}" } }'))[0],
    { path: '/resources/client/fields/name', message: /exactly one source/ })
  t.match(issues(base + 'relations:\n  - { between: [professional, service], via: appointment }\n'),
    [{ path: '/relations/0/between', message: /professional.*not mapped/ }])
  t.match(issues(base + 'states:\n  moves: { WAITING: [GONE] }\n')[0], { path: '/states/moves/WAITING/0' })
})

t.test('write.before/after rows on the appointment are refused at their line, never accepted and left unwritten', async (t) => {
  for (const side of ['before', 'after']) {
    const text = base.replace('    state: { column: ST, map: { A: WAITING } }\n',
      `    state: { column: ST, map: { A: WAITING } }\n    joins:\n      log: { table: LOG, on: { ID: APT } }\n    write:\n      ${side}:\n        - join: log\n          set: { KIND: { value: 25 } }\n`)
    const [issue] = issues(text)
    t.match(issue, { path: `/resources/appointment/write/${side}`, line: 13, message: /written with a new client only.*booking never writes them.*write\.history/ }, side)
  }
})

t.test('errors are located even for semantic problems', async (t) => {
  const [issue] = issues(base.replace('map: { A: WAITING }', 'map: { A: ARRIVED }'))
  t.equal(issue.line, 8)
})

t.test('every sample mapping validates', async (t) => {
  for (const f of ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']) {
    const text = readFileSync(f, 'utf8')
    t.doesNotThrow(() => buildModel(parseMapping(text, f)), f)
  }
})

t.test('mapping.schema.json is the one generated from the TypeBox definition', async (t) => {
  t.equal(readFileSync('mapping.schema.json', 'utf8'), mappingJsonSchemaText(), 'run `npm run schema` and commit mapping.schema.json')
})

t.test('a YAML alias bomb is a mapping error naming the file, never the library\'s exception', async (t) => {
  const bomb = ['version: 1', 'installation: bomb', 'a0: &a0 [x, x, x, x, x, x, x, x, x]',
    ...[1, 2, 3, 4, 5, 6].map((n) => `a${n}: &a${n} [${Array(9).fill(`*a${n - 1}`).join(', ')}]`)].join('\n')
  const found = issues(bomb)
  t.equal(found.length, 1, 'one issue')
  t.match(found[0], { file: 'm.yaml', path: '', message: /^cannot be read: .*alias/i })
})

t.test('a key given twice in one map is refused at its second line', async (t) => {
  const [issue] = issues(base.replace('    key: ID\n    start', '    key: ID\n    key: ID2\n    start'))
  t.match(issue, { line: 7, message: /the key "key" is given twice/ })
})

t.test('the installation name: one line of at most 100 characters', async (t) => {
  t.doesNotThrow(() => buildModel(parseMapping(base.replace('installation: test', `installation: "Clínica São José – ${'x'.repeat(80)}"`), 'm.yaml')), 'accents and dashes, 100 characters')
  t.match(issues(base.replace('installation: test', `installation: ${'x'.repeat(101)}`)), [{ path: '/installation', line: 2, message: /more than 100 characters/ }])
  t.match(issues(base.replace('installation: test', 'installation: "two\\nlines"')), [{ path: '/installation', message: 'must not hold control characters (line breaks, tabs)' }])
})

t.test('a mapping file over 1 MB, or not a regular file, is refused without reading it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-load-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const refusal = (file: string): MappingIssue[] | undefined => {
    try { readMappingFile(file) } catch (err) { if (err instanceof MappingError) return err.issues; throw err }
    return undefined
  }
  // Lines of 100 bytes.
  const huge = join(dir, 'huge.yaml')
  writeFileSync(huge, base + `# ${'x'.repeat(97)}\n`.repeat(MAX_MAPPING_BYTES / 100 + 1))
  t.match(refusal(huge), [{ file: huge, path: '', message: /^1\.0 MB, more than a mapping may be \(1 MB\)/ }])
  const fits = join(dir, 'fits.yaml')
  writeFileSync(fits, base + `# ${'x'.repeat(97)}\n`.repeat(MAX_MAPPING_BYTES / 100 - 10))
  t.equal(refusal(fits), undefined, 'just under the limit: read')
  // A device reports size 0 and never ends.
  if (existsSync('/dev/zero')) t.match(refusal('/dev/zero'), [{ message: 'not a regular file' }])
})
