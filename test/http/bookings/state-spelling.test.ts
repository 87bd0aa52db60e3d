// A state is input like any other: refused, never guessed at (stranger report D5). A state
// sent in another case, with spaces or in another spelling is a 400 naming the field and
// listing the installation's vocabulary, on PATCH …/state and on the list's `?state=` filter
// alike, and the row is unchanged. On a physiotherapy practice's schema with a vocabulary of
// its own (ARRIVED), on every test database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import type { TestDialect } from '../../helpers/app.js'

const schema = `
CREATE TABLE patient_card (card_no INTEGER PRIMARY KEY, given_nm VARCHAR(50) NOT NULL, tel VARCHAR(20));
CREATE TABLE session_log (sess_id INTEGER PRIMARY KEY, card_no INTEGER NOT NULL, sday DATE NOT NULL, stime VARCHAR(5) NOT NULL, sstat VARCHAR(3) NOT NULL);
INSERT INTO patient_card (card_no, given_nm, tel) VALUES (40, 'Ines Sousa', '912345678');
INSERT INTO session_log (sess_id, card_no, sday, stime, sstat) VALUES (1, 40, '2031-05-06', '09:00', 'ag');
INSERT INTO session_log (sess_id, card_no, sday, stime, sstat) VALUES (2, 40, '2031-05-07', '09:00', 'chg');
`

const mapping = `version: 1
installation: physio-states
timezone: Europe/Lisbon
phone: { defaultCountry: PT }
states:
  values: [WAITING, ARRIVED, CANCELED]
  moves: { WAITING: [ARRIVED, CANCELED], ARRIVED: [CANCELED], CANCELED: [WAITING] }
resources:
  appointment:
    table: session_log
    key: sess_id
    start:
      date: { column: sday, format: date }
      hour: { column: stime, format: text }
    state: { column: sstat, map: { ag: WAITING, chg: ARRIVED, anl: CANCELED } }
    refs: { client: card_no }
    write:
      key: { generate: max }
      states:
        WAITING: { sstat: { value: ag } }
        ARRIVED: { sstat: { value: chg } }
        CANCELED: { sstat: { value: anl } }
  client:
    table: patient_card
    key: card_no
    fields: { name: given_nm }
    phones: [tel]
`

const RANGE = 'start=2031-05-01&end=2031-05-31'

for (const dialect of testDialects() as TestDialect[]) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema, mapping)
    const stored = async (): Promise<string> => String((await s.rows('SELECT sstat FROM session_log WHERE sess_id = 1'))[0]?.sstat)

    for (const state of ['arrived', 'Arrived', ' ARRIVED', 'ARRIVED ', 'ARRIVED\u00a0', 'CANCELLED', 'canceled']) {
      const r = await s.call('PATCH', '/appointments/1/state', { state })
      t.equal(r.status, 400, `${JSON.stringify(state)} is refused`)
      t.match(r.body.errors, [{ path: '/body/state', message: /WAITING, ARRIVED, CANCELED/ }], 'naming the field and the vocabulary')
      t.equal(await stored(), 'ag', 'and the row is unchanged')
    }
    t.equal((await s.call('PATCH', '/appointments/1/state', { state: 'ARRIVED' })).status, 200, 'the exact spelling moves it')
    t.equal(await stored(), 'chg')

    for (const state of ['arrived', '%20ARRIVED']) {
      const r = await s.call('GET', `/appointments?${RANGE}&state=${state}`)
      t.equal(r.status, 400, `the filter ${state} is refused as the body is`)
      t.match(r.body.errors, [{ path: '/querystring/state', message: /WAITING, ARRIVED, CANCELED/ }])
    }
    const arrived = await s.call('GET', `/appointments?${RANGE}&state=ARRIVED`)
    t.same(arrived.body.map((a: { id: string }) => a.id), ['1', '2'])
  })
}
