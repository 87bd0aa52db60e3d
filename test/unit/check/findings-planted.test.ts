// `ponte check` on a schema unlike the samples, with one mistake planted at a time: each is
// reported once, at its line in the mapping, in the mapping's words, and the verdict is not
// "passed". The database is unchanged afterwards (writes are probed and rolled back).
import t, { type Test } from 'tap'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openInstallation } from '../../../src/installation.js'
import { checkInstallation, type CheckReport } from '../../../src/check/index.js'
import { MappingError } from '../../../src/mapping/errors.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

async function checkWith (t: Test, mapping: string): Promise<{ report: CheckReport, before: string, after: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-planted-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(db)
  raw.exec(CLINIC_SQL)
  raw.close()
  writeFileSync(join(dir, 'mapping.yaml'), mapping)
  const before = readFileSync(db).toString('base64')
  const inst = await openInstallation(join(dir, 'mapping.yaml'), `sqlite:${db}`, undefined, { structural: 'skip' })
  try {
    const report = await checkInstallation(inst, '2026-11-22')
    return { report, before, after: readFileSync(db).toString('base64') }
  } finally {
    await inst.close()
  }
}

function lineOf (mapping: string, text: string): number {
  return mapping.split('\n').findIndex((l) => l.includes(text)) + 1
}

const LEAKS = /\bt_?\w*\.|\bc\d+\b|\.all\b|\.page\b|\.insert\b|list\[|no such|Ana|Bruno|98888|ana@/

t.test('the mapping as written passes, and the database is unchanged by the probes', async (t) => {
  const { report, before, after } = await checkWith(t, CLINIC_MAPPING.replace("'7': CANCELED }", "'7': CANCELED }"))
  t.ok(report.ok, report.lines.join('\n'))
  t.equal(after, before, 'the file is byte for byte what it was')
  t.ok(report.lines.some((l) => /statements ran \(writes rolled back\)/.test(l)))
})

const PLANTED: { what: string, from: string, to: string, says: RegExp }[] = [
  { what: 'a misspelt table', from: 'table: TB_MEDICO\n', to: 'table: TB_MEDICOS\n', says: /professional table: table `TB_MEDICOS` does not exist in the database \(did you mean `TB_MEDICO`\?\)/ },
  { what: 'a misspelt column in a read', from: 'email: EMAIL', to: 'email: EMIAL', says: /client fields\.email: column `EMIAL` does not exist in table `TB_CLIENTE` \(did you mean `EMAIL`\?\)/ },
  { what: "a misspelt column in a write's set:", from: 'ORIGEM: { value: ponte }', to: 'ORIGME: { value: ponte }', says: /appointment write\.set\.ORIGME: column `ORIGME` does not exist in table `TB_CONSULTA`/ },
  { what: 'a misspelt column in availability', from: 'end: { column: FIM, format: text }', to: 'end: { column: FIN, format: text }', says: /availability weekly\.end: column `FIN` does not exist in table `TB_GRADE`/ },
  { what: 'format: hhmm on a text column', from: 'hour: { column: HORA, format: text }', to: 'hour: { column: HORA, format: hhmm }', says: /appointment start\.hour\.format: `format: hhmm` reads a number, but column `HORA` is text \(VARCHAR\(5\)\)/ },
  { what: "trueValues: ['S'] on an int column", from: 'enabled: { column: SITUACAO, trueValues: [1] }', to: "enabled: { column: SITUACAO, trueValues: ['S'] }", says: /professional enabled\.trueValues: `trueValues: \['S'\]` can never match: column `SITUACAO` holds numbers/ },
  // The old spelling `true:` is the same converter, found the same way.
  { what: "true: ['S'] (the old spelling) on an int column", from: 'enabled: { column: SITUACAO, trueValues: [1] }', to: "enabled: { column: SITUACAO, true: ['S'] }", says: /professional enabled\.trueValues: `trueValues: \['S'\]` can never match: column `SITUACAO` holds numbers/ },
  { what: 'an unmapped status code', from: ", '7': CANCELED }", to: ' }', says: /appointment state\.map: stored SIT 7 is not mapped: 2 rows, e.g\. id 502/ },
  { what: 'a relation through a missing table', from: 'table: TB_MEDICO_LOCAL', to: 'table: TB_MEDICO_LOCALS', says: /relation professional ↔ location table: table `TB_MEDICO_LOCALS` does not exist/ },
  { what: 'a join that multiplies rows', from: '    phones: [FONE]\n', to: '    phones: [FONE, fones.NUMERO]\n    joins:\n      fones: { table: TB_FONE, on: { COD: CLIENTE } }\n', says: /client joins\.fones: join `fones` multiplies rows: 2 client rows become 3/ },
  { what: 'a client with no writable column', from: 'name: NOME_COMPLETO', to: "name: { template: '{NOME_COMPLETO} - {EMAIL}' }", says: /client fields\.name: new clients cannot be written/ },
  { what: 'a NOT NULL column a new row leaves empty', from: '        ORIGEM: { value: ponte }\n', to: '        {}\n', says: /appointment write: a new appointment row leaves column `ORIGEM` empty, but the database requires a value/ }
]

for (const p of PLANTED) {
  t.test(`planted: ${p.what}`, async (t) => {
    const mapping = CLINIC_MAPPING.replace(p.from, p.to)
    t.not(mapping, CLINIC_MAPPING, 'the mistake is planted')
    const { report, before, after } = await checkWith(t, mapping.replace('      set:\n        {}\n', ''))
    t.notOk(report.ok, 'not passed')
    t.equal(report.lines[report.lines.length - 1], 'check found 1 problem', report.lines.join('\n'))
    const hits = report.lines.filter((l) => p.says.test(l))
    t.equal(hits.length, 1, `said once: ${p.says}`)
    const line = p.what.includes('NOT NULL')
      ? lineOf(mapping, '    write:') + 1
      : p.what.includes('unmapped')
        ? lineOf(mapping, 'map: {')
        : p.what.includes('multiplies') ? lineOf(mapping, 'fones: {') : lineOf(mapping, p.to.trim())
    t.match(hits[0] ?? '', new RegExp(`^✗ \\S*mapping\\.yaml:${line}:\\d+: `), `at line ${line}`)
    for (const l of report.lines) t.notMatch(l, LEAKS, 'no aliases, statement names or patient data')
    t.equal(after, before, 'database unchanged')
  })
}

t.test('planted: a YAML syntax error is reported at its line', async (t) => {
  const mapping = CLINIC_MAPPING.replace('      email: EMAIL', '      email: [EMAIL')
  const err = await checkWith(t, mapping).then(() => undefined, (e: unknown) => e)
  t.ok(err instanceof MappingError, 'a mapping error, not a crash')
  const issues = (err as MappingError).issues
  t.equal(issues.length, 1, 'said once')
  t.equal(issues[0].line, lineOf(mapping, '[EMAIL'), 'at the line that holds the unclosed [')
})

t.test('planted: a ref written through a join on the patient\'s own column is a problem at its line', async (t) => {
  const mapping = CLINIC_MAPPING
    .replace('    refs:\n      client: CLIENTE\n', '    joins:\n      cli: { table: TB_CLIENTE, on: { CLIENTE: COD } }\n    refs:\n      client: CLIENTE\n      plan: cli.EMAIL\n')
    .replace('    write:\n      set:\n        ORIGEM', '    write:\n      refs:\n        plan: { firstOf: cli }\n      set:\n        ORIGEM')
  const { report } = await checkWith(t, mapping)
  t.notOk(report.ok, 'not passed')
  const hits = report.lines.filter((l) => /plan and client would both be written to column CLIENTE/.test(l))
  t.equal(hits.length, 1, report.lines.join('\n'))
  t.match(hits[0] ?? '', new RegExp(`^✗ \\S*mapping\\.yaml:${lineOf(mapping, 'plan: { firstOf: cli }')}:\\d+: `))
})

t.test('planted: a ref read through a join, undeclared, is a warning at its line: bookings sending it are refused', async (t) => {
  const mapping = CLINIC_MAPPING
    .replace('    refs:\n      client: CLIENTE\n', '    joins:\n      cli: { table: TB_CLIENTE, on: { CLIENTE: COD } }\n    refs:\n      client: CLIENTE\n      plan: cli.EMAIL\n')
  const { report } = await checkWith(t, mapping)
  const hits = report.lines.filter((l) => /bookings sending plan are refused \(501\)/.test(l))
  t.equal(hits.length, 1, report.lines.join('\n'))
  t.match(hits[0] ?? '', new RegExp(`^! \\S*mapping\\.yaml:${lineOf(mapping, 'plan: cli.EMAIL')}:\\d+: `))
})

t.test('planted: phones read only through a join: every registration would be refused, so check does not pass', async (t) => {
  const mapping = CLINIC_MAPPING.replace('    phones: [FONE]\n', '    phones: [fones.NUMERO]\n    joins:\n      fones: { table: TB_FONE, on: { COD: CLIENTE }, first: { key: NUMERO } }\n')
  t.not(mapping, CLINIC_MAPPING, 'planted')
  const { report } = await checkWith(t, mapping)
  t.notOk(report.ok, 'not passed')
  const hits = report.lines.filter((l) => /POST \/clients requires one: every registration would be refused/.test(l))
  t.equal(hits.length, 1, report.lines.join('\n'))
  t.match(hits[0] ?? '', new RegExp(`^✗ \\S*mapping\\.yaml:${lineOf(mapping, 'phones: [fones.NUMERO]')}:\\d+: `))
})
