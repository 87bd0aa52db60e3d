// The new constructs explain a wrong mapping instead of compiling a wrong statement: each
// mistake is a mapping error (start-up) or a 501 naming the place (writes), never a 500.
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { compileAppointmentWrites } from '../../src/mapping/compile/appointment-write.js'
import { compileClientWrites } from '../../src/mapping/compile/client-write.js'
import { MappingError } from '../../src/mapping/errors.js'
import { CompileError } from '../../src/mapping/compile/scope.js'
import { identifierMaker, luhnCheck, luhnValid } from '../../src/mapping/compile/identifier.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { NORMALISED_MAPPING } from '../helpers/normalised-installation.js'

const model = (yaml: string) => buildModel(parseMapping(yaml, 'illimani.yaml'))
const compileError = (fn: () => unknown): CompileError | undefined => {
  try { fn() } catch (err) { if (err instanceof CompileError) return err; throw err }
  return undefined
}

t.test('Luhn mod N', async (t) => {
  t.equal(luhnCheck('7992739871', '0123456789'), '3', 'the classic mod 10 example')
  t.ok(luhnValid('79927398713', '0123456789'))
  t.notOk(luhnValid('79927398710', '0123456789'))
  const mod30 = '0123456789ACDEFGHJKLMNPRTUVWXY'
  const make = identifierMaker({ check: 'luhn', characters: mod30, digits: 6, prefix: 'BO-' }, '/x')
  const id = make('42')
  t.match(id, /^BO-000042[0-9A-Y]$/)
  t.ok(luhnValid(id.slice(3), mod30), 'the prefix is not part of the check')
  t.throws(() => identifierMaker({ check: 'luhn', characters: '0012' }, '/x'), /each character once/)
  t.throws(() => luhnCheck('12B', '0123456789'), /not in the identifier alphabet/)
})

t.test('a rule with two outcomes is refused', async (t) => {
  const bad = NORMALISED_MAPPING.replace('          - { column: grand.address1 }\n', "          - { column: grand.address1, value: 'x' }\n")
  t.not(bad, NORMALISED_MAPPING)
  t.throws(() => model(bad), MappingError)
})

t.test('slot booking: the join and the start must be the slot\'s', async (t) => {
  const slotJoin = (to: string) => model(NORMALISED_MAPPING.replace('        join: slot\n', `        join: ${to}\n`))
  t.match(compileError(() => compileAppointmentWrites(slotJoin('slott'), sqlite))?.message, /no join called `slott`/)
  t.match(compileError(() => compileAppointmentWrites(slotJoin('block'), sqlite))?.message, /hang from the appointment table/)
})

t.test('slot capacity and accepted services must be read through the slot', async (t) => {
  const slot = (extra: string) => model(NORMALISED_MAPPING.replace('        join: slot\n', `        join: slot\n        ${extra}\n`))
  t.match(compileError(() => compileAppointmentWrites(slot('capacity: { column: voided }'), sqlite))?.message, /`voided` must be a column of the slot/)
  t.equal(compileError(() => compileAppointmentWrites(slot('capacity: { column: block.seats }'), sqlite)), undefined, 'a column of a join below the slot is fine')
  const services = (doc: string) => model(NORMALISED_MAPPING.replace(/ {8}services:[\s\S]*?column: appointment_type_id\n/, `        services: ${doc}\n`))
  t.match(compileError(() => compileAppointmentWrites(services('{ column: block.provider_id, on: { a: b } }'), sqlite))?.message, /`on` and `where` go with `table`/)
  t.match(compileError(() => compileAppointmentWrites(services('{ table: block_types, column: type_id }'), sqlite))?.message, /how the services table hangs from the block/)
  t.match(compileError(() => compileAppointmentWrites(services('{ column: appointment_type_id }'), sqlite))?.message, /must be a column of the slot/)
})

t.test('extra rows name what they write', async (t) => {
  const notCollected = model(NORMALISED_MAPPING.replace('        - phones: 0\n', '        - phones: 3\n'))
  t.match(compileError(() => compileClientWrites(notCollected, sqlite))?.message, /phones\/3 does not collect/)
  const noJoin = model(NORMALISED_MAPPING.replace('        - join: identifier\n', '        - join: identifiers\n'))
  t.match(compileError(() => compileClientWrites(noJoin, sqlite))?.message, /no join called `identifiers`/)
})

t.test('a collected value reads anywhere a statement binds parameters, and is refused elsewhere', async (t) => {
  const classified = NORMALISED_MAPPING.replace('    refs:\n      client: patient_id', `    classification: { collect: { table: appointmentscheduling_appointment_type, on: { appointment_type_id: appointment_type_id }, column: name } }
    refs:
      client: patient_id`)
  t.not(classified, NORMALISED_MAPPING)
  const compiled = compileMapping(model(classified), sqlite)
  t.match(compiled.appointments({ filters: [], minimal: false }).statement.sql, /GROUP_CONCAT/)
  const bad = NORMALISED_MAPPING.replace('    professional: block.provider_id\n    location: block.location_id\n    start: { column: start_date',
    '    professional: { collect: { table: provider, on: { block.provider_id: provider_id }, column: provider_id } }\n    location: block.location_id\n    start: { column: start_date')
  t.not(bad, NORMALISED_MAPPING)
  t.throws(() => compileMapping(model(bad), sqlite), MappingError)
})
