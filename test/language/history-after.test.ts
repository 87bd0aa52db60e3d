// `write.history.after` (Open Dental's histappointment): on an orthodontic schema generated
// here (test/helpers/history-after.ts), on every test database, a booking adds one log row
// after its insert holding the new booking's key, its columns as inserted and the `create`
// code; a state change and a reschedule each add one more, holding the row as the change left
// it and their own code; a refused change adds none; `on` without `create` leaves the booking
// unlogged. Every row read back from the table. `check` passes; mapping mistakes are refused at
// load, at their line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { COPIED, DAY, MAPPING, USER, schema } from '../helpers/history-after.js'

const text = (v: unknown): string | null => v === null || v === undefined ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).trim().slice(0, 10)

/** The log rows of booking `id`, oldest first: the copied columns, the action and the user. */
async function logged (s: ServerScratch, id: string): Promise<Array<Record<string, string | null>>> {
  const rows = await s.rows(`SELECT ${COPIED.join(', ')}, hist_action, hist_user, hist_stamp FROM booking_hist WHERE booking_no = ${Number(id)} ORDER BY hist_no`)
  return rows.map((r) => ({ ...Object.fromEntries([...COPIED, 'hist_action', 'hist_user'].map((c) => [c, text(r[c])])), stamped: r.hist_stamp === null ? null : 'yes' }))
}

const problems = (report: { findings: Array<{ severity: string, path: string, message: string }> }): string[] =>
  report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('book, confirm, move: one row each, the row as the change left it', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '4' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const id = String(booked.body.id)
      const created = { chart_no: '1', clin_no: '4', on_day: DAY, at_hour: '10:00', state_no: '1', memo: 'via ponte', hist_action: '0', hist_user: String(USER), stamped: 'yes' }
      t.same(await logged(s, id), [created], 'the booking: one row, the new key, its columns as inserted, `create`\'s code')

      const confirmed = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })
      t.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
      const afterState = { ...created, state_no: '2', hist_action: '1' }
      t.same(await logged(s, id), [created, afterState], 'a state change: a second row holding the new state, `state`\'s code')

      const moved = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '13:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.same(await logged(s, id), [created, afterState, { ...afterState, at_hour: '13:00', state_no: '1' }], 'a reschedule: a third, at the new hour and WAITING again (states.onReschedule), `reschedule`\'s code')

      const refused = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '08:00' })
      t.equal(refused.status, 409, 'a move onto the desk\'s booking is refused')
      t.equal((await logged(s, id)).length, 3, 'and adds no row')
      t.same(await logged(s, '1'), [], 'the desk\'s own booking has none')
      t.same(problems(await checkOf(t, s.url, MAPPING)), [], 'check passes, its write probe rolled back')
      t.equal((await logged(s, id)).length, 3, 'and leaves no row behind')
    })

    t.test('on: [state] logs no booking', async (t) => {
      const yaml = MAPPING.replace('on: [create, state, reschedule]', 'on: [state]').replace('{ event: { create: 0, state: 1, reschedule: 1 } }', '{ event: { state: 1 } }')
      const s = await scratchOn(t, dialect, schema(dialect), yaml)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '2', professional: '4' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same(await logged(s, String(booked.body.id)), [], 'no row for the booking')
      const cancelled = await s.call('PATCH', `/appointments/${String(booked.body.id)}/state`, { state: 'CANCELED' })
      t.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
      t.same((await logged(s, String(booked.body.id))).map((r) => [r.state_no, r.hist_action]), [['3', '1']], 'one for the cancellation')
    })
  })
}

t.test('mapping mistakes are refused at load, at their line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const line = (yaml: string, s: string): number => yaml.split('\n').findIndex((l) => l.includes(s)) + 1
  t.equal(refused(MAPPING), 'accepted')

  const inSet = MAPPING.replace('set: { memo: { value: via ponte } }', 'set: { memo: { after: chart_no } }')
  t.match(refused(inSet), new RegExp(`m.yaml:${line(inSet, 'memo: { after: chart_no }')}.*write/set/memo/after: \`after\` is the appointment row as a change left it: it is written only under write.history.after`))

  const asLeft = MAPPING.replace('        after:\n', '        left:\n')
  t.match(refused(asLeft), /write\/history\/on\/0: `create` adds a row for the booking, which leaves nothing behind for a `left` row: give `after`/)
  t.match(refused(asLeft), /write\/history\/left\/chart_no\/after: `after` is the appointment row as a change left it/)

  const noCode = MAPPING.replace('{ event: { create: 0, state: 1, reschedule: 1 } }', '{ event: { create: 0, state: 1 } }')
  t.match(refused(noCode), new RegExp(`m.yaml:${line(noCode, 'hist_action')}.*write/history/after/hist_action/event: no code for reschedule: every change that adds the row writes one`))

  const extra = MAPPING.replace('on: [create, state, reschedule]', 'on: [create, state]')
  t.match(refused(extra), /write\/history\/after\/hist_action\/event\/reschedule: no `reschedule` adds this row \(write.history.on: create, state\)/)

  const inSetEvent = MAPPING.replace('set: { memo: { value: via ponte } }', 'set: { memo: { event: { create: x } } }')
  t.match(refused(inSetEvent), /write\/set\/memo\/event: `event` says which change added a history row: it is written only under write.history.after or write.history.left/)

  const joined = MAPPING.replace('memo: { after: memo }', 'memo: { after: c.memo }')
  t.match(refused(joined), /write\/history\/after\/memo\/after: `c.memo` is a joined column/)

  const newKey = MAPPING.replace('memo: { after: memo }', 'memo: { newKey: true }')
  t.match(refused(newKey), /write\/history\/after\/memo\/newKey: `newKey` is made when a row is booked or inserted; an `after` row copies the appointment as the change left it/)

  const unknown = MAPPING.replace('on: [create, state, reschedule]', 'on: [create, state, deleted]')
  t.match(refused(unknown), /history\/on\/2/, 'a change that is not one')
})
