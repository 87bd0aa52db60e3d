// Issue 27 item 13 where no server runs it: SQL Server's T-SQL of the OpenMRS-like attribute
// forms (the state row's DELETE and its voiding UPDATE, its INSERT) pinned in test/golden/ and
// parsed by the T-SQL grammar; and `write.stateRows` mistakes refused at their line.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/state-rows-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { confirmMapping } from '../helpers/confirm-installation.js'

t.setTimeout(180_000)

for (const form of ['attribute', 'voided'] as const) {
  pinTsql(t, buildModel(parseMapping(confirmMapping(form), `${form}.yaml`)), {
    by: 'test/language/state-rows-golden.test.ts',
    more: (t, statements) => {
      const clear = statements.find((s) => s.name === 'appointment.stateRow.confirmation.clear')
      t.match(clear?.sql, form === 'voided' ? /^UPDATE \[r\] SET \[voided\] = / : /^DELETE \[r\] FROM \[appointment_attribute\] \[r\] WHERE /, `the clear ${form === 'voided' ? 'voids' : 'deletes'}`)
      t.match(statements.find((s) => s.name === 'appointment.stateRow.confirmation.insert')?.sql, /^INSERT INTO \[appointment_attribute\] \(\[appointment_id\], \[value\], \[date_created\], \[attribute_type\], \[voided\]\)/,
        'the insert writes the key, `set` and what the join\'s where requires')
    }
  })
}

t.test('write.stateRows mistakes are refused at their line, saying why', async (t) => {
  const base = confirmMapping('attribute')
  const lineOf = (text: string): number => base.split('\n').findIndex((l) => l.includes(text)) + 1
  const refused = (yaml: string): { line?: number, said: string } => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      if (err instanceof MappingError) return { line: err.issues[0].line, said: err.issues.map((i) => `${i.path}: ${i.message}`).join('\n') }
      throw err
    }
    return { said: 'accepted' }
  }
  t.equal(refused(base).said, 'accepted', 'the attribute mapping compiles')

  const noJoin = refused(base.replace('        - join: confirmation\n          states: [CONFIRMED]\n', '        - states: [CONFIRMED]\n'))
  t.match(noJoin.said, /\/resources\/appointment\/write\/stateRows\/0: .*join/, 'an entry without its join')
  t.equal(noJoin.line, lineOf('        - join: confirmation'), 'the entry\'s own line')

  const unknown = refused(base.replace('        - join: confirmation', '        - join: confirmed'))
  t.match(unknown.said, /stateRows\/0\/join: no join called `confirmed` in \/resources\/appointment\/joins/)
  t.equal(unknown.line, lineOf('        - join: confirmation'))

  const state = refused(base.replace('          states: [CONFIRMED]', '          states: [CONFIRMD]'))
  t.match(state.said, /stateRows\/0\/states\/0: `CONFIRMD` is not one of the states/)
  t.equal(state.line, lineOf('          states: [CONFIRMED]'))

  const notKey = refused(base.replace('        on: { appointment_id: appointment_id }', '        on: { patient_id: appointment_id }'))
  t.match(notKey.said, /stateRows\/0\/join: `confirmation` must join the appointment table on its key alone \(on: \{ appointment_id: … \}\)/)

  const unread = refused(base.replace("          set: { value: { value: 'true' }, date_created: { now: datetime } }", "          set: { value: { value: 'true' }, attribute_type: { value: booked } }"))
  t.match(unread.said, /stateRows\/0\/set: the row written would fail `confirmation`'s where\/0, so the state it records would never be read back/)
  t.equal(unread.line, lineOf("          set: { value: { value: 'true' }"))

  const stillFound = refused(base.replace('date_created: { now: datetime } }\n', "date_created: { now: datetime } }\n          clear: { value: { value: 'false' } }\n"))
  t.match(stillFound.said, /stateRows\/0\/clear: a cleared row must fail `confirmation`'s where/)
  t.equal(stillFound.line, lineOf('date_created: { now: datetime } }') + 1)
  t.equal(refused(base.replace('date_created: { now: datetime } }\n', 'date_created: { now: datetime } }\n          clear: { voided: { value: 1 } }\n')).said, 'accepted', 'voiding fails `voided = 0`: accepted')
})
