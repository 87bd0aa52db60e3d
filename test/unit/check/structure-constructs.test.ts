// The structural pass walks every construct of the normalised-schema language (issue 9):
// `first` joins, collected child rows, minutes between columns, rows written before/after a
// resource's, the slot join, the status history and generated identifiers. One mistake is
// planted at a time in a generated schema: `ponte check` says it once, at its line, in the
// mapping's words, with exit 1; the server refuses to start on it.
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { MappingMismatchError, openInstallation } from '../../../src/installation.js'
import { childEnv } from '../../helpers/child-env.js'
import { NORMALISED_MAPPING, normalisedSql, ID_TYPE, PHONE_TYPE } from '../../helpers/normalised-installation.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'ponte-constructs-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const DB = join(dir, 'legacy.db')
const raw = new BetterSqlite3(DB)
raw.exec(normalisedSql())
raw.close()

let n = 0
function mappingFile (yaml: string): string {
  const file = join(dir, `mapping-${n++}.yaml`)
  writeFileSync(file, yaml)
  return file
}

async function check (file: string): Promise<{ code: number | null, out: string, err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', '--mapping', file, '--db', `sqlite:${DB}`, '--today', '2027-02-01'], {
    cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d) => { out += String(d) })
  child.stderr.on('data', (d) => { err += String(d) })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, out, err }
}

function lineOf (yaml: string, text: string): number {
  return yaml.slice(0, yaml.indexOf(text)).split('\n').length + text.slice(0, text.search(/\S/)).split('\n').length - 1
}

const PLANTED: { what: string, from: string, to: string, says: RegExp }[] = [
  { what: 'a `first` join key', from: 'first: { key: patient_identifier_id', to: 'first: { key: patient_identifer_id', says: /client joins\.identifier\.first\.key: column `patient_identifer_id` does not exist in table `patient_identifier` \(did you mean `patient_identifier_id`\?\)/ },
  { what: 'a `first` join order column', from: 'first: { key: person_name_id, by: [{ column: preferred', to: 'first: { key: person_name_id, by: [{ column: prefered', says: /client joins\.name\.first\.by\[0\]: column `prefered` does not exist in table `person_name`/ },
  { what: 'a `collect` table', from: 'table: person_attribute\n', to: 'table: person_attributes\n', says: /client phones\[0\]\.collect\.table: table `person_attributes` does not exist in the database/ },
  { what: 'a `collect` column', from: 'column: value\n', to: 'column: valor\n', says: /client phones\[0\]\.collect\.column: column `valor` does not exist in table `person_attribute`/ },
  { what: 'a `minutes` column', from: 'minutes: { from: start_date, to: end_date }', to: 'minutes: { from: start_date, to: end_dt }', says: /availability dated\.interval\.minutes\.to: column `end_dt` does not exist in table `appointmentscheduling_time_slot`/ },
  { what: 'an availability join table', from: 'block: { table: appointmentscheduling_appointment_block, on:', to: 'block: { table: appointmentscheduling_appointment_blocks, on:', says: /availability dated\.joins\.block\.table: table `appointmentscheduling_appointment_blocks` does not exist/ },
  { what: 'a `write.before` column', from: 'set: { gender: { value: U }', to: 'set: { gendr: { value: U }', says: /client write\.before\[0\]\.set\.gendr: column `gendr` does not exist in table `person` \(did you mean `gender`\?\)/ },
  { what: 'a `write.after` column', from: `            identifier_type: { value: ${ID_TYPE} }`, to: `            identifier_typ: { value: ${ID_TYPE} }`, says: /client write\.after\[1\]\.set\.identifier_typ: column `identifier_typ` does not exist in table `patient_identifier`/ },
  { what: 'a `write.after` phone row column', from: `set: { person_attribute_type_id: { value: ${PHONE_TYPE} }`, to: `set: { person_attr_type_id: { value: ${PHONE_TYPE} }`, says: /client write\.after\[2\]\.set\.person_attr_type_id: column `person_attr_type_id` does not exist in table `person_attribute`/ },
  { what: 'a `write.after` row naming no join', from: '        - join: identifier\n', to: '        - join: identifiers\n', says: /client write\.after\[1\]\.join: no join called `identifiers` under client joins/ },
  { what: 'a `write.slot` join', from: '        join: slot\n', to: '        join: slots\n', says: /appointment write\.slot\.join: no join called `slots` under appointment joins/ },
  { what: 'a `write.history` table', from: 'table: appointmentscheduling_appointment_status_history', to: 'table: appointmentscheduling_appointment_status_histories', says: /appointment write\.history\.table: table `appointmentscheduling_appointment_status_histories` does not exist/ },
  { what: 'a `write.history` key', from: '        key: appointment_id\n        current:', to: '        key: appt_id\n        current:', says: /appointment write\.history\.key: column `appt_id` does not exist in table `appointmentscheduling_appointment_status_history`/ },
  { what: 'a `write.history` current column', from: 'current: { column: end_date, isNull: true }', to: 'current: { column: ended, isNull: true }', says: /appointment write\.history\.current: column `ended` does not exist in table `appointmentscheduling_appointment_status_history`/ },
  { what: 'a `write.history` open column', from: 'open: { status: { state: true }', to: 'open: { estado: { state: true }', says: /appointment write\.history\.open\.estado: column `estado` does not exist/ },
  { what: 'a `write.history` close column', from: 'close: { end_date: { now: datetime } }', to: 'close: { end_dt: { now: datetime } }', says: /appointment write\.history\.close\.end_dt: column `end_dt` does not exist/ },
  { what: 'a uuid into a number column', from: '        voided: { value: 0 }\n      history:', to: '        voided: { uuid: true }\n      history:', says: /appointment write\.set\.voided\.uuid: a UUID is text, but column `voided` holds numbers \(TINYINT\)/ },
  { what: 'a Luhn identifier with letters into a number column', from: '            preferred: { value: 1 }\n            location_id', to: '            preferred: { identifier: { check: luhn, prefix: P } }\n            location_id', says: /client write\.after\[1\]\.set\.preferred\.identifier: the identifier holds letters \(a prefix\), but column `preferred` holds numbers/ }
]

t.test('the normalised mapping as written passes (exit 0) and opens', async (t) => {
  const file = mappingFile(NORMALISED_MAPPING)
  const { code, out } = await check(file)
  t.equal(code, 0, out)
  t.match(out, /check passed\n$/)
  const inst = await openInstallation(file, `sqlite:${DB}`)
  await inst.close()
})

t.test('each planted mistake: once, at its line, exit 1; the server refuses to start on it', async (t) => {
  const planted = PLANTED.map((p) => {
    const yaml = NORMALISED_MAPPING.replace(p.from, p.to)
    return { p, yaml, file: mappingFile(yaml) }
  })
  // The CLI's own entry (`main`, what bin/ponte runs) once per mapping, in one child process:
  // a process per mistake would compile the sources eighteen times over.
  const script = `import { main } from './src/cli.ts'
    for (const file of JSON.parse(process.env.PLANTED_FILES)) {
      const code = await main(['check', '--mapping', file, '--db', process.env.PLANTED_DB, '--today', '2027-02-01'])
      process.stdout.write('\\n@@exit ' + code + '\\n')
    }`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT, env: childEnv({ PLANTED_FILES: JSON.stringify(planted.map((x) => x.file)), PLANTED_DB: `sqlite:${DB}` }), stdio: ['ignore', 'pipe', 'pipe']
  })
  let all = ''
  child.stdout.on('data', (d) => { all += String(d) })
  t.equal(await new Promise<number | null>((resolve) => child.on('exit', resolve)), 0)
  const outputs = all.split(/\n@@exit (\d+)\n/)
  const runs = planted.map((x, i) => ({ ...x, out: outputs[2 * i], code: Number(outputs[2 * i + 1]) }))
  for (const { p, yaml, file, code, out } of runs) {
    t.test(p.what, async (t) => {
      t.not(yaml, NORMALISED_MAPPING, 'the mistake is planted')
      t.equal(code, 1, 'exit 1')
      const lines = out.trim().split('\n')
      t.equal(lines[lines.length - 1], 'check found 1 problem', out)
      const hits = lines.filter((l) => p.says.test(l))
      t.equal(hits.length, 1, `said once: ${p.says}`)
      const line = lineOf(yaml, p.to)
      t.match(hits[0] ?? '', new RegExp(`^✗ \\S*mapping-\\d+\\.yaml:${line}:\\d+: `), `at line ${line}`)
      t.notMatch(out, /\bt_?\d*\.\w|\bh\.\w|no such|Wara|Mamani|appointment\.history\.|\.insert\b/, 'no aliases, statement names or patient data')
      const refused = await openInstallation(file, `sqlite:${DB}`).then(async (inst) => { await inst.close() }, (e: unknown) => e)
      t.ok(refused instanceof MappingMismatchError, 'openInstallation refuses (structural: refuse)')
      t.match((refused as Error).message, p.says)
    })
  }
})
