// A ref written through a join whose rows belong to patients (`write.refs.<ref>.firstOf` with
// `owner`), on a schema generated here unlike the samples (a physiotherapy practice: members,
// their funder cards, therapy sessions pointing at a card) and on every test database: a booking
// points at the booked member's own card holding the funder sent, never another member's; a
// member without such a card is refused naming the field, nothing written; `ponte check`
// reports `firstOf` without `owner` on a card table referring to the member, at its line, and
// proves the owned form.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'

const DAY = '2031-03-04'

const SCHEMA = `
CREATE TABLE member (member_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, phone VARCHAR(20));
CREATE TABLE funder (funder_code INTEGER PRIMARY KEY, funder_name VARCHAR(40) NOT NULL);
CREATE TABLE member_card (card_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, funder_code INTEGER NOT NULL, card_no VARCHAR(12), FOREIGN KEY (member_no) REFERENCES member (member_no));
CREATE TABLE therapist (th_id INTEGER PRIMARY KEY, th_name VARCHAR(40) NOT NULL);
CREATE TABLE therapy (sess_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, th_id INTEGER NOT NULL, card_id INTEGER, sess_day DATE NOT NULL, sess_hm VARCHAR(5) NOT NULL, flag CHAR(1) NOT NULL);
INSERT INTO member (member_no, full_name, phone) VALUES (1, 'Rita Gomes', '11987650101');
INSERT INTO member (member_no, full_name, phone) VALUES (2, 'Caio Reis', '11987650102');
INSERT INTO member (member_no, full_name, phone) VALUES (3, 'Lia Moura', '11987650103');
INSERT INTO funder (funder_code, funder_name) VALUES (50, 'Saude Mais');
INSERT INTO funder (funder_code, funder_name) VALUES (60, 'Vida Plena');
INSERT INTO member_card (card_id, member_no, funder_code, card_no) VALUES (1, 1, 50, 'SM-0001');
INSERT INTO member_card (card_id, member_no, funder_code, card_no) VALUES (2, 2, 50, 'SM-0002');
INSERT INTO member_card (card_id, member_no, funder_code, card_no) VALUES (3, 2, 60, 'VP-0003');
INSERT INTO therapist (th_id, th_name) VALUES (7, 'Ft. Nara Dias');
`

const OWNED = '        healthInsurance: { firstOf: { join: card, owner: member_no } }'
const PLAIN = '        healthInsurance: { firstOf: card }'

function mapping (refLine: string): string {
  return `version: 1
installation: physio-cards
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: therapy
    key: sess_id
    joins:
      card: { table: member_card, on: { card_id: card_id } }
    start:
      date: { column: sess_day, format: date }
      hour: { column: sess_hm, format: text }
    state: { column: flag, map: { w: WAITING, c: CONFIRMED, x: CANCELED } }
    refs:
      client: member_no
      professional: th_id
      healthInsurance: card.funder_code
    write:
      key: { generate: max }
      refs:
${refLine}
  client:
    table: member
    key: member_no
    fields: { name: full_name }
    phones: [phone]
    write:
      key: { generate: max }
      phoneFormat: digits
  professional:
    table: therapist
    key: th_id
    fields: { name: th_name }
  healthInsurance:
    table: funder
    key: funder_code
    fields: { name: funder_name }
`
}

const lineOf = (text: string, line: string): number => text.split('\n').indexOf(line) + 1
const sessions = async (s: ServerScratch): Promise<Array<Record<string, unknown>>> =>
  (await s.rows('SELECT sess_id, member_no, card_id FROM therapy ORDER BY sess_id')).map((r) => ({ member: Number(r.member_no), card: r.card_id === null ? null : Number(r.card_id) }))

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking takes the member\'s own card for the funder sent; a member without one is refused by name', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(OWNED))
      // Member 2's card for funder 50 is card 2; card 1 (member 1's) is the first holding it.
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '2', professional: '7', healthInsurance: '50' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(booked.body.healthInsurance?.id, '50', 'answered with the funder sent')
      t.same(await sessions(s), [{ member: 2, card: 2 }], 'stored against member 2\'s own card, not member 1\'s')

      const other = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '2', professional: '7', healthInsurance: '60' })
      t.equal(other.status, 200, JSON.stringify(other.body))
      t.same((await sessions(s))[1], { member: 2, card: 3 }, 'the other funder: member 2\'s other card')

      const refused = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '1', professional: '7', healthInsurance: '60' })
      t.equal(refused.status, 409, JSON.stringify(refused.body))
      t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'], 'the refusal names the field')
      t.equal((await sessions(s)).length, 2, 'nothing was written')

      const none = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '3', professional: '7' })
      t.equal(none.status, 200, JSON.stringify(none.body))
      t.same((await sessions(s))[2], { member: 3, card: null }, 'without the field: no card')
    })

    t.test('check reports firstOf without owner at its line, and proves the owned form', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, mapping(OWNED))
      const plain = mapping(PLAIN)
      const report = await checkOf(t, s.url, plain)
      const found = report.findings.find((f) => f.path.endsWith('/write/refs/healthInsurance/firstOf'))
      t.equal(found?.severity, 'problem', JSON.stringify(found))
      t.equal(found?.line, lineOf(plain, PLAIN), 'at the firstOf line')
      t.match(found?.message ?? '', /another patient's row/)
      t.match(found?.message ?? '', /owner: member_no/, 'names the owner column to declare')

      const owned = await checkOf(t, s.url, mapping(OWNED))
      const problems = owned.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
      t.same(problems, [], 'no problem with the owner declared')
      const probe = owned.findings.find((f) => f.message.startsWith('POST /appointments with every ref'))
      t.equal(probe?.severity, 'ok', JSON.stringify(probe))
      t.match(probe?.message ?? '', /healthInsurance/, 'the probe booked a card of the client\'s own')
      t.equal((await sessions(s)).length, 0, 'check rolled its writes back')
    })
  })
}
