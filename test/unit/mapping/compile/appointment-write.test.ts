// A value the mapping derives, written into a column a ref also writes, would be overwritten by
// the ref whenever a booking names it: found going live on Open Dental, where `ProvNum` copied
// from the operatory's dentist was silently replaced by the booked hygienist (a professional read
// by rules is written to its last column). Refused, at the column's line; a constant there is a
// default and stays allowed.
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../../../src/mapping/compile/index.js'
import { sqlite } from '../../../../src/sql/sqlite/dialect.js'

const mapping = (set: string): string => `
version: 1
installation: open-dental-like
resources:
  appointment:
    table: appointment
    key: AptNum
    start: { datetime: { column: AptDateTime, format: datetime } }
    state: { column: AptStatus, type: int, map: { '1': WAITING, '5': CANCELED } }
    refs:
      client: PatNum
      professional:
        rules:
          - { when: { column: IsHygiene, eq: 1 }, column: ProvHyg }
          - { column: ProvNum }
    write:
      key: { generate: max }
      set: ${set}
  client: { table: patient, key: PatNum, fields: { name: LName } }
  professional: { table: provider, key: ProvNum, fields: { name: Abbr } }
`

// The booking, or the appointment's writes as a whole where the refusal takes them all.
const insertOf = (set: string) => {
  const writes = compileMapping(buildModel(parseMapping(mapping(set), 'od.yaml')), sqlite).writes.appointment
  return isUnsupported(writes) ? writes : writes.insert
}

t.test('a stamp into the column a rules ref writes is refused at its line', async (t) => {
  const insert = insertOf('{ ProvNum: { now: datetime } }')
  t.ok(isUnsupported(insert), 'booking is unsupported')
  if (isUnsupported(insert)) {
    t.equal(insert.unsupported.path, '/resources/appointment/write/set/ProvNum')
    t.match(insert.unsupported.reason, /where a booking writes its professional .*overwrite this value/)
  }
})

t.test('a constant there is a default, and a derived value in another column is fine', async (t) => {
  t.notOk(isUnsupported(insertOf('{ ProvNum: { value: 1 } }')), 'a constant default')
  t.notOk(isUnsupported(insertOf('{ ProvHyg: { now: datetime } }')), 'ProvHyg is read, never written by the ref')
})
