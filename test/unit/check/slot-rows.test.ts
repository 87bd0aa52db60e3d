// `ponte check` with slot-based booking (`write.slot`) on the generated normalised schema,
// a copy with a capacity column and planted rows: capacities booking cannot read or that
// close a slot, a slot holding more than it takes, a block accepting no service, an
// appointment whose block refuses its service — each counted with an example id. Mapping
// mistakes in `write.slot` are reported at their line, and the server refuses to start on them.
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { MappingMismatchError, openInstallation } from '../../../src/installation.js'
import { childEnv } from '../../helpers/child-env.js'
import { NORMALISED_MAPPING, normalisedSql } from '../../helpers/normalised-installation.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const dir = mkdtempSync(join(tmpdir(), 'ponte-slot-check-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const SLOT = 'appointmentscheduling_time_slot'
const MAP = 'appointmentscheduling_block_type_map'
const APPT = 'appointmentscheduling_appointment'
const row = (id: number, slot: number, patient: number, type: number, status: string): string => `(${id}, ${slot}, ${patient}, ${type}, '${status}', 0, 'planted-${id}', 1, '2028-01-10 09:00:00')`

// Block 1 (slots 1–12) accepts services 1 and 2, block 2 (slots 13–21) only 2, block 3 (22–30) only 1.
const PLANTED = `
ALTER TABLE ${SLOT} ADD COLUMN places INT;
UPDATE ${SLOT} SET places = 2;
UPDATE ${SLOT} SET places = NULL WHERE time_slot_id = 5;
UPDATE ${SLOT} SET places = 0 WHERE time_slot_id = 6;
UPDATE ${SLOT} SET places = 'muitos' WHERE time_slot_id = 7;
UPDATE ${SLOT} SET places = 1 WHERE time_slot_id IN (8, 9);
-- Block 3 accepts nothing now, and holds no appointment; every other appointment's service is accepted.
DELETE FROM ${MAP} WHERE appointment_block_id = 3;
DELETE FROM ${APPT} WHERE time_slot_id BETWEEN 22 AND 30 OR time_slot_id IN (8, 9);
UPDATE ${APPT} SET appointment_type_id = (SELECT MIN(m.appointment_type_id) FROM ${MAP} m JOIN ${SLOT} s ON s.appointment_block_id = m.appointment_block_id
  WHERE s.time_slot_id = ${APPT}.time_slot_id);
-- Slot 8 takes 1 and holds 2; slot 9 takes 1 and holds 1 (the cancelled one frees its place).
-- Appointment 90005: service 1 in block 2, which accepts only 2.
INSERT INTO ${APPT} VALUES ${[row(90001, 8, 3, 1, 'SCHEDULED'), row(90002, 8, 4, 2, 'COMPLETED'), row(90003, 9, 5, 1, 'SCHEDULED'), row(90004, 9, 6, 2, 'CANCELLED'), row(90005, 13, 7, 1, 'SCHEDULED')].join(', ')};
`
const DB = join(dir, 'legacy.db')
const raw = new BetterSqlite3(DB)
raw.exec(normalisedSql())
raw.exec(PLANTED)
raw.close()

const WITH_CAPACITY = NORMALISED_MAPPING.replace('        join: slot\n', '        join: slot\n        capacity: { column: slot.places }\n')

let n = 0
function mappingFile (yaml: string): string {
  const file = join(dir, `mapping-${n++}.yaml`)
  writeFileSync(file, yaml)
  return file
}

async function check (file: string): Promise<{ code: number | null, out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', '--mapping', file, '--db', `sqlite:${DB}`, '--today', '2027-02-01'], {
    cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (d) => { out += String(d) })
  child.stderr.on('data', (d) => { out += String(d) })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, out }
}

function lineOf (yaml: string, text: string): number {
  return yaml.slice(0, yaml.indexOf(text)).split('\n').length
}

t.test('the stored slots: each kind of trouble counted once, with an example id', async (t) => {
  t.not(WITH_CAPACITY, NORMALISED_MAPPING, 'capacity declared')
  const r = await check(mappingFile(WITH_CAPACITY))
  t.equal(r.code, 1, r.out)
  const capacityLine = lineOf(WITH_CAPACITY, 'capacity: { column: slot.places }')
  // A block's place is where its mapping starts: the line after `services:`.
  const servicesLine = lineOf(WITH_CAPACITY, 'table: appointmentscheduling_block_type_map')
  const once = (re: RegExp, line: number): void => {
    const hits = r.out.split('\n').filter((l) => re.test(l))
    t.equal(hits.length, 1, `once: ${re}`)
    t.match(hits[0] ?? '', new RegExp(`mapping-\\d+\\.yaml:${line}:\\d+: `), `at line ${line}`)
  }
  once(/^✗ .*appointment write\.slot\.capacity: 1 slot has a capacity that is not a whole number, e\.g\. slot id 7: each is taken as 1 place$/, capacityLine)
  once(/^! .*appointment write\.slot\.capacity: 1 slot has no capacity \(NULL\), e\.g\. slot id 5: each is taken as 1 place$/, capacityLine)
  once(/^! .*appointment write\.slot\.capacity: 1 slot has a capacity of 0 or less, e\.g\. slot id 6: closed, never offered or booked$/, capacityLine)
  once(/^! .*appointment write\.slot\.capacity: 1 slot holds more appointments than it takes, e\.g\. slot id 8: booking refuses/, capacityLine)
  once(/^! .*appointment write\.slot\.services: 1 of [\d,]+ blocks accept no service \(no row in `appointmentscheduling_block_type_map`\), e\.g\. block 3: never offered when a service is asked for$/, servicesLine)
  once(/^! .*appointment write\.slot\.services: 1 appointment has a service its block does not accept, e\.g\. id 90005: /, servicesLine)
  t.match(r.out, /check found 1 problem\n$/)
  t.notMatch(r.out, /muitos/, 'the stored value is not repeated')
})

const MISTAKES: { what: string, from: string, to: string, says: RegExp }[] = [
  {
    what: 'a services `on` column missing from the services table',
    from: 'on: { block.appointment_block_id: appointment_block_id }',
    to: 'on: { block.appointment_block_id: appointment_blok_id }',
    says: /appointment write\.slot\.services\.on\.block\.appointment_block_id: column `appointment_blok_id` does not exist in table `appointmentscheduling_block_type_map` \(did you mean `appointment_block_id`\?\)/
  },
  {
    what: 'a services table that does not exist',
    from: 'table: appointmentscheduling_block_type_map',
    to: 'table: appointmentscheduling_block_types',
    says: /appointment write\.slot\.services\.table: table `appointmentscheduling_block_types` does not exist in the database/
  },
  {
    what: 'a capacity column the slot does not have',
    from: 'capacity: { column: slot.places }',
    to: 'capacity: { column: slot.place }',
    says: /appointment write\.slot\.capacity: column `place` does not exist in table `appointmentscheduling_time_slot` \(did you mean `places`\?\)/
  },
  {
    what: 'services without refs.service',
    from: '      service: appointment_type_id\n',
    to: '',
    says: /appointment write\.slot\.services: says which services each block accepts, but the appointment has no `refs\.service`/
  }
]

for (const m of MISTAKES) {
  t.test(`planted in write.slot: ${m.what}`, async (t) => {
    const yaml = WITH_CAPACITY.replace(m.from, m.to)
    t.not(yaml, WITH_CAPACITY, 'the mistake is planted')
    const file = mappingFile(yaml)
    const r = await check(file)
    t.equal(r.code, 1, r.out)
    const hits = r.out.split('\n').filter((l) => m.says.test(l))
    t.equal(hits.length, 1, `said once: ${m.says}`)
    const line = m.to === '' ? lineOf(yaml, 'table: appointmentscheduling_block_type_map') : lineOf(yaml, m.to)
    t.match(hits[0] ?? '', new RegExp(`^✗ \\S*mapping-\\d+\\.yaml:${line}:\\d+: `), `at line ${line}`)
    t.notMatch(r.out, /appointment\.write|\bs_\w*\.|no such/, 'no statement names or aliases')
    // The server runs the same structural pass before it listens.
    const err = await openInstallation(file, `sqlite:${DB}`).then(async (inst) => { await inst.close(); return undefined }, (e: unknown) => e)
    t.ok(err instanceof MappingMismatchError, 'the server refuses to start')
    t.match((err as Error | undefined)?.message ?? '', m.says)
  })
}
