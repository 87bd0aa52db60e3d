// A block's `to` with a real far-future date under `nullIf` (stranger report D4): the clinic's
// "never ends" (9999-12-31) then reads as no end, and a block without an end is the one day
// `from`, so an indefinite leave blocked one day and check said "all readable". Check now
// warns at that `nullIf` entry, counting the rows read as one-day blocks; with the entry
// removed the leave blocks every day and check is quiet. A dental lab's rota on every test
// database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'
import type { TestDialect } from '../../helpers/app.js'

const schema = `
CREATE TABLE techs (tech_no INTEGER PRIMARY KEY, tech_nm VARCHAR(40) NOT NULL);
CREATE TABLE patrons (pat_no INTEGER PRIMARY KEY, pat_nm VARCHAR(40) NOT NULL, pat_tel VARCHAR(20));
CREATE TABLE fittings (fit_no INTEGER PRIMARY KEY, pat_no INTEGER NOT NULL, tech_no INTEGER NOT NULL, fday DATE NOT NULL, fhour VARCHAR(5) NOT NULL, fstat INTEGER NOT NULL);
CREATE TABLE rota (rota_no INTEGER PRIMARY KEY, tech_no INTEGER NOT NULL, dow INTEGER NOT NULL, h_from VARCHAR(5) NOT NULL, h_to VARCHAR(5) NOT NULL);
CREATE TABLE away (away_no INTEGER PRIMARY KEY, tech_no INTEGER NOT NULL, away_from DATE NOT NULL, away_to DATE);
INSERT INTO techs (tech_no, tech_nm) VALUES (3, 'Rui Prata'), (4, 'Olga Fonseca');
INSERT INTO patrons (pat_no, pat_nm, pat_tel) VALUES (1, 'Joana Reis', '912345678');
INSERT INTO rota (rota_no, tech_no, dow, h_from, h_to) VALUES (1, 3, 1, '09:00', '12:00'), (2, 3, 2, '09:00', '12:00'), (3, 3, 3, '09:00', '12:00'), (4, 4, 1, '09:00', '12:00');
INSERT INTO away (away_no, tech_no, away_from, away_to) VALUES (1, 3, '2031-03-03', '9999-12-31'), (2, 4, '2031-03-10', '9999-12-31'), (3, 4, '2031-02-02', '2031-02-03');
`

const mapping = (nullIf: string): string => `version: 1
installation: lab-rota
timezone: Europe/Lisbon
phone: { defaultCountry: PT }
resources:
  appointment:
    table: fittings
    key: fit_no
    start:
      date: { column: fday, format: date }
      hour: { column: fhour, format: text }
    state: { column: fstat, type: int, map: { '0': WAITING, '1': CONFIRMED } }
    refs: { client: pat_no, professional: tech_no }
  client:
    table: patrons
    key: pat_no
    fields: { name: pat_nm }
    phones: [pat_tel]
  professional:
    table: techs
    key: tech_no
    fields: { name: tech_nm }
availability:
  slotMinutes: 60
  weekly:
    table: rota
    professional: tech_no
    weekday: dow
    start: { column: h_from, format: text }
    end: { column: h_to, format: text }
  blocks:
    table: away
    professional: tech_no
    from: { column: away_from, format: date }
    to: { column: away_to, format: date${nullIf} }
`

for (const dialect of testDialects() as TestDialect[]) {
  t.test(dialect, async (t) => {
    const planted = mapping(", nullIf: ['0000-00-00', '9999-12-31']")
    const s = await scratchOn(t, dialect, schema, planted)
    // The server reads the leave as the one day 2031-03-03: the Monday after is offered.
    const offered = await s.call('GET', '/availability?professional=3&start=2031-03-10&end=2031-03-10')
    t.equal(offered.status, 200)
    t.ok(JSON.stringify(offered.body).includes('09:00'), 'with the sentinel, the indefinite leave is over after its first day')

    const report = await checkOf(t, s.url, planted, '2031-03-01')
    const line = planted.split('\n').findIndex((l) => l.includes("'9999-12-31'")) + 1
    const warned = report.findings.find((f) => f.path === '/availability/blocks/to/nullIf/1')
    t.ok(warned, 'check warns at the far-future sentinel')
    t.equal(warned?.severity, 'warning')
    t.equal(warned?.line, line, 'at its line')
    t.match(warned?.message, /`9999-12-31` under `nullIf`.*2 of 3 rows of `away` are then read as one-day blocks.*never ends/, 'counting the rows it shortens')

    const fixed = mapping(", nullIf: ['0000-00-00']")
    const quiet = await checkOf(t, s.url, fixed, '2031-03-01')
    t.notOk(quiet.findings.some((f) => f.path.startsWith('/availability/blocks/to/nullIf')), 'a zero-date sentinel alone says nothing')
    const s2 = await scratchOn(t, dialect, schema, fixed)
    const blocked = await s2.call('GET', '/availability?professional=3&start=2031-03-10&end=2031-03-10')
    t.equal(blocked.status, 200)
    t.notOk(JSON.stringify(blocked.body).includes('09:00'), 'without it, the leave never ends')
  })
}
