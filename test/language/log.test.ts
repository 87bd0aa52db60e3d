// `write.log` (Open Dental's securitylog): on a veterinary desk generated here
// (test/helpers/audit-log.ts), on every test database, a booking adds one audit row holding
// the new visit's key, its owner, the booking's code, the clerk and a stamp, and one ledger
// row numbered past the desk's; a cancellation adds one more audit row with its own code and
// the state it left the visit in; a refused booking or move adds none. Rows read back from the
// tables. `check` passes and leaves nothing behind; a missing column is a problem at its
// line; mapping mistakes are refused at load, at their line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { CLERK, DAY, MAPPING, schema } from '../helpers/audit-log.js'

const text = (v: unknown): string | null => v === null || v === undefined ? null : String(v).trim()

/** The audit rows of visit `id`, oldest first (the desk's seeded row has the key 1). */
async function audited (s: ServerScratch, id: string): Promise<Array<Record<string, string | null>>> {
  const rows = await s.rows(`SELECT action_code, owner_ref, clerk, note, status_now, logged_at FROM audit_trail WHERE visit_ref = ${Number(id)} ORDER BY audit_id`)
  return rows.map((r) => ({ ...Object.fromEntries(['action_code', 'owner_ref', 'clerk', 'note', 'status_now'].map((c) => [c, text(r[c])])), stamped: r.logged_at === null ? null : 'yes' }))
}

const counts = async (s: ServerScratch): Promise<string> => {
  const [a] = await s.rows('SELECT COUNT(*) AS n FROM audit_trail')
  const [l] = await s.rows('SELECT COUNT(*) AS n FROM ledger')
  return `${String(a.n)} audit, ${String(l.n)} ledger`
}

const problems = (report: { findings: Array<{ severity: string, path: string, message: string }> }): string[] =>
  report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('book, cancel: one audit row each; refused writes add none', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '6' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const id = String(booked.body.id)
      t.equal(id, '2', 'the new visit takes the next key')
      const created = { action_code: '25', owner_ref: '1', clerk: String(CLERK), note: 'Ponte booking', status_now: 'BK', stamped: 'yes' }
      t.same(await audited(s, id), [created], 'the booking: one audit row, the new key, its owner, `create`\'s code')
      t.same((await s.rows(`SELECT entry_no, kind FROM ledger WHERE visit_ref = ${Number(id)}`)).map((r) => [Number(r.entry_no), text(r.kind)]), [[71, 'booked']], 'and one ledger row numbered past the desk\'s (rowKey: max)')

      const taken = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '6' })
      t.equal(taken.status, 409, 'a booking onto the desk\'s visit is refused')
      t.equal(await counts(s), '2 audit, 2 ledger', 'and writes no row')

      const cancelled = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })
      t.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
      t.same(await audited(s, id), [created, { ...created, action_code: '26', status_now: 'CX' }], 'a cancellation: one more, `state`\'s code, the visit as it left it')
      t.equal(await counts(s), '3 audit, 2 ledger', 'the ledger logs bookings only (`on` defaults to create)')

      const back = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })
      t.equal(back.status, 409, 'a move the installation does not allow is refused')
      const moved = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '11:00' })
      t.not(moved.status, 200, 'a cancelled visit is not moved')
      t.equal(await counts(s), '3 audit, 2 ledger', 'neither adds a row')
      t.same(await audited(s, '1'), [{ action_code: '25', owner_ref: '2', clerk: '1', note: 'desk', status_now: 'BK', stamped: 'yes' }], 'the desk\'s own row is left alone')

      t.same(problems(await checkOf(t, s.url, MAPPING)), [], 'check passes, its write probe rolled back')
      t.equal(await counts(s), '3 audit, 2 ledger', 'and leaves no row behind')
    })

    t.test('check: a log column the table lacks is a problem at its line', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const yaml = MAPPING.replace('note: { value: Ponte booking }', 'remark: { value: Ponte booking }')
      const found = problems(await checkOf(t, s.url, yaml))
      t.ok(found.some((p) => p.startsWith('/resources/appointment/write/log/0/set/remark')), found.join('\n'))
      t.equal(await counts(s), '1 audit, 1 ledger', 'nothing written')
    })
  })
}

t.test('mapping mistakes are refused at load at their line, or leave the appointment unwritable naming the place', async (t) => {
  const refused = (yaml: string): string => {
    try {
      const writes = compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite).writes.appointment
      return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : 'accepted'
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
  }
  const line = (yaml: string, s: string): number => yaml.split('\n').findIndex((l) => l.includes(s)) + 1
  t.equal(refused(MAPPING), 'accepted')

  const before = MAPPING.replace('status_now: { after: status }', 'status_now: { before: status }')
  t.match(refused(before), new RegExp(`m.yaml:${line(before, 'status_now: { before')}.*write/log/0/set/status_now/before: \`before\` is the appointment row as a change found it`))

  const left = MAPPING.replace('status_now: { after: status }', 'status_now: { state: left }')
  t.match(refused(left), /write\/log\/0\/set\/status_now\/state: `state: left` is the state a change leaves/)

  const joined = MAPPING.replace('owner_ref: { after: owner_id }', 'owner_ref: { after: o.owner_id }')
  t.match(refused(joined), new RegExp(`m.yaml:${line(joined, 'o.owner_id')}.*write/log/0/set/owner_ref/after: \`o.owner_id\` is a joined column`))

  const newKey = MAPPING.replace('visit_ref: { after: visit_id }\n            kind', 'visit_ref: { newKey: true }\n            kind')
  t.match(refused(newKey), /write\/log\/1\/set\/visit_ref\/newKey: `newKey` is made when a row is booked or inserted; a log row copies the appointment as the change left it/)

  const client = MAPPING.replace('note: { value: Ponte booking }', 'note: { client: name }')
  t.match(refused(client), /write\/log\/0\/set\/note\/client: a copy of the booked client is written when an appointment is booked/)

  const noCode = MAPPING.replace('{ event: { create: 25, state: 26 } }', '{ event: { create: 25 } }')
  t.match(refused(noCode), new RegExp(`m.yaml:${line(noCode, 'action_code')}.*write/log/0/set/action_code/event: no code for state: every change that adds the row writes one`))

  const extra = MAPPING.replace('on: [create, state]', 'on: [create]')
  t.match(refused(extra), /write\/log\/0\/set\/action_code\/event\/state: no `state` adds this row \(write.log\[0\].on: create\)/)

  const ownKey = MAPPING.replace('kind: { value: booked }', 'kind: { value: booked }\n            entry_no: { value: 1 }')
  t.match(refused(ownKey), /write\/log\/1\/set\/entry_no: `entry_no` is the log row's own key, made by `rowKey`: leave it out here/)

  const onClient = MAPPING.replace('    write: { key: { generate: max } }', '    write: { key: { generate: max }, log: [{ table: ledger, set: { kind: { value: x } } }] }')
  t.match(refused(onClient), /client\/write\/log: `log` rows are written with an appointment's changes/)

  const afterElsewhere = MAPPING.replace('key: { generate: max }\n      log:', 'key: { generate: max }\n      set: { status: { after: status } }\n      log:')
  t.match(refused(afterElsewhere), /write\/set\/status\/after: `after` is the appointment row as a change left it: it is written only under write.history.after or write.log/)

  const unknown = MAPPING.replace('on: [create, state]', 'on: [create, deleted]')
  t.match(refused(unknown), /log\/0\/on\/1/, 'a change that is not one')
})
