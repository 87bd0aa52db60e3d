// What `enabled` does to a booking naming a disabled record, lookup by lookup, on a schema
// generated here unlike the samples (every lookup flagged by its own column and spelling), on
// every test database: a disabled location or health insurance is a 400 naming the field and
// nothing is written; a disabled professional or service is booked (the interface's `enabled`
// hides them from end clients, not from operators) and read back; every disabled record is still
// listed where the list takes no `enabled` filter, and left out where it does.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'

const DAY = '2031-05-06'

const SCHEMA = `
CREATE TABLE owner (owner_id INTEGER PRIMARY KEY, owner_name VARCHAR(40) NOT NULL, cell VARCHAR(20));
CREATE TABLE vet (vet_id INTEGER PRIMARY KEY, vet_name VARCHAR(40) NOT NULL, on_staff CHAR(1));
CREATE TABLE clinic_site (site_code VARCHAR(8) PRIMARY KEY, site_name VARCHAR(40) NOT NULL, closed_on DATE, closed INTEGER NOT NULL);
CREATE TABLE visit_kind (kind_id INTEGER PRIMARY KEY, kind_name VARCHAR(40) NOT NULL, withdrawn VARCHAR(3) NOT NULL);
CREATE TABLE pet_plan (plan_id INTEGER PRIMARY KEY, plan_name VARCHAR(40) NOT NULL, accepted VARCHAR(5) NOT NULL);
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, vet_id INTEGER NOT NULL, site_code VARCHAR(8), kind_id INTEGER, plan_id INTEGER, visit_day DATE NOT NULL, visit_hm VARCHAR(5) NOT NULL, st CHAR(1) NOT NULL);
INSERT INTO owner (owner_id, owner_name, cell) VALUES (1, 'Rita Gomes', '11987650301');
INSERT INTO vet (vet_id, vet_name, on_staff) VALUES (1, 'Dr. Caio Prado', 'Y');
INSERT INTO vet (vet_id, vet_name, on_staff) VALUES (2, 'Dra. Lia Moura', 'N');
INSERT INTO clinic_site (site_code, site_name, closed) VALUES ('NORTE', 'Unidade Norte', 0);
INSERT INTO clinic_site (site_code, site_name, closed) VALUES ('SUL', 'Unidade Sul', 1);
INSERT INTO visit_kind (kind_id, kind_name, withdrawn) VALUES (10, 'Consulta', 'no');
INSERT INTO visit_kind (kind_id, kind_name, withdrawn) VALUES (11, 'Tosa', 'yes');
INSERT INTO pet_plan (plan_id, plan_name, accepted) VALUES (5, 'PetLove', 'true');
INSERT INTO pet_plan (plan_id, plan_name, accepted) VALUES (6, 'Amil Pet (descredenciado)', 'false');
INSERT INTO visit (visit_id, owner_id, vet_id, site_code, kind_id, plan_id, visit_day, visit_hm, st) VALUES (1, 1, 2, 'SUL', 11, 6, '2031-05-05', '09:00', 'A');
`

const MAPPING = `version: 1
installation: vet-enabled
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: visit
    key: visit_id
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hm, format: text }
    state: { column: st, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs:
      client: owner_id
      professional: vet_id
      location: { column: site_code, type: text }
      service: kind_id
      healthInsurance: plan_id
    write:
      key: { generate: max }
  client:
    table: owner
    key: owner_id
    fields: { name: owner_name }
    phones: [cell]
  professional:
    table: vet
    key: vet_id
    fields: { name: vet_name }
    enabled: { column: on_staff, trueValues: ['Y'] }
  location:
    table: clinic_site
    key: { column: site_code, type: text }
    fields: { name: site_name, address: site_name }
    enabled: { column: closed, trueValues: [1], invert: true }
  service:
    table: visit_kind
    key: kind_id
    fields: { name: kind_name }
    enabled: { column: withdrawn, trueValues: ['yes'], invert: true }
  healthInsurance:
    table: pet_plan
    key: plan_id
    fields: { name: plan_name }
    enabled: { column: accepted, trueValues: ['true'] }
`

const visits = async (s: ServerScratch): Promise<string[]> =>
  (await s.rows('SELECT visit_id, vet_id, site_code, kind_id, plan_id, visit_hm FROM visit ORDER BY visit_id'))
    .map((r) => [r.visit_id, r.vet_id, r.site_code, r.kind_id, r.plan_id, r.visit_hm].map((v) => v === null ? '-' : String(v).trim()).join(' '))
const ids = (body: Array<{ id: string }>): string[] => body.map((r) => r.id)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    t.same(ids((await s.call('GET', '/health-insurances')).body), ['5', '6'], 'the disabled insurer is still listed: the list takes no enabled filter')
    t.same(ids((await s.call('GET', '/locations')).body), ['NORTE', 'SUL'], 'so is the closed site')
    t.same(ids((await s.call('GET', '/professionals?enabled=true')).body), ['1'], 'enabled=true leaves the disabled vet out')
    t.same(ids((await s.call('GET', '/services?enabled=false')).body), ['11'], 'enabled=false lists the withdrawn service alone')
    const [past] = (await s.call('GET', '/appointments?start=2031-05-05&end=2031-05-05')).body
    t.same([past.professional?.id, past.location?.id, past.service?.id, past.healthInsurance?.id], ['2', 'SUL', '11', '6'], 'a past visit still names them all')

    const before = await visits(s)
    const book = async (hour: string, more: object) => await s.call('POST', '/appointments', { date: DAY, hour, client: '1', professional: '1', location: 'NORTE', service: '10', healthInsurance: '5', ...more })
    const insurer = await book('09:00', { healthInsurance: '6' })
    t.equal(insurer.status, 400, JSON.stringify(insurer.body))
    t.same(insurer.body.errors, [{ path: '/body/healthInsurance', message: 'healthInsurance "6" is not enabled for new appointments' }])
    const site = await book('09:00', { location: 'SUL' })
    t.equal(site.status, 400, JSON.stringify(site.body))
    t.same(site.body.errors?.map((e: { path: string }) => e.path), ['/body/location'])
    t.same(await visits(s), before, 'nothing was written')

    const vet = await book('09:00', { professional: '2' })
    t.equal(vet.status, 200, `a vet hidden from end clients is booked: ${JSON.stringify(vet.body)}`)
    const kind = await book('10:00', { service: '11' })
    t.equal(kind.status, 200, `so is a withdrawn service: ${JSON.stringify(kind.body)}`)
    t.same(await visits(s), [...before, '2 2 NORTE 10 5 09:00', '3 1 NORTE 11 5 10:00'], 'both stored as sent')
  })
}
