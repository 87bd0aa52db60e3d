// The mapping language's quirks, each against a real SQLite database built for the test:
// what the compiler reads must be what its SQL filters on.
import t from 'tap'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'
import { MappingError } from '../../../src/mapping/errors.js'
import { scratchInstallation } from '../../helpers/scratch.js'

const SCHEMA = `
CREATE TABLE VISIT (ID INTEGER PRIMARY KEY, DAY TEXT, AT_HHMM INTEGER, LEN_S INTEGER, ST CHAR(2), CONF CHAR(1),
  PAT TEXT, DOC INTEGER, ALT_DOC INTEGER, ALT CHAR(1), ROOM INTEGER, GONE INTEGER);
CREATE TABLE ROOM (ID INTEGER PRIMARY KEY, SITE TEXT);
CREATE TABLE SITE (CODE TEXT PRIMARY KEY, STREET TEXT, NUM TEXT, AREA TEXT);
CREATE TABLE PAT (ID INTEGER PRIMARY KEY, FIRST TEXT, LAST TEXT, SOCIAL TEXT, CEL TEXT, HOME TEXT, CPF TEXT, BORN TEXT, KIND TEXT);
CREATE TABLE DOC (ID INTEGER PRIMARY KEY, NAME TEXT, HIDDEN INTEGER, CRM TEXT, UF TEXT);
INSERT INTO ROOM VALUES (1, 'S1'), (2, 'S2');
INSERT INTO SITE VALUES ('S1', 'Rua A', '10', 'Centro'), ('S2', 'Rua B', '', 'Vila');
INSERT INTO PAT VALUES
  (1, 'Ana', 'Souza', NULL, '(11) 98765-4321', '11 8765-4321', '123.456.789-09', '1990-05-01', 'P'),
  (2, 'Bruno', '', 'Bia', '', '3333-4444 ramal 5', '98765432100', '0000-00-00', 'P'),
  (3, 'Staff', 'Member', NULL, NULL, NULL, NULL, NULL, 'S');
INSERT INTO DOC VALUES (7, 'Dr. Sete', 0, '123', 'SP'), (8, 'Dra. Oito', 1, NULL, NULL);
INSERT INTO VISIT VALUES
  (100, '2026-03-10', 930, 1800, 'A ', 'N', '1', 7, 8, 'N', 1, 0),
  (101, '2026-03-10', 1400, 0, 'A ', 'S', '2', 7, 8, 'S', 2, 0),
  (102, '2026-03-11', 800, 3600, 'X ', 'N', '1', 7, NULL, 'N', 1, 0),
  (103, '2026-03-11', 815, 600, 'A ', 'N', '3', 8, NULL, 'N', 1, 0),
  (104, '2026-03-12', 900, 600, 'A ', 'N', '1', 7, NULL, 'N', 1, 1),
  (105, '2026-03-12', 1000, 600, 'x ', 'N', '1', 7, NULL, 'N', 1, 0);
`

const MAPPING = `
version: 1
installation: quirks
phone: { defaultCountry: BR, defaultAreaCode: '11' }
resources:
  appointment:
    table: dbo.VISIT
    key: ID
    where: { column: GONE, ne: 1 }
    joins:
      room: { table: dbo.ROOM, on: { ROOM: ID } }
    start:
      date: { column: DAY, format: text }
      hour: { column: AT_HHMM, format: hhmm }
    end:
      duration: { column: LEN_S, unit: seconds, nullIf: [0] }
    state:
      rules:
        - { when: { column: ST, eq: 'X' }, value: CANCELED }
        - { when: { column: CONF, eq: 'S' }, value: CONFIRMED }
        - { value: WAITING }
    refs:
      client: { column: PAT, type: text }
      professional:
        rules:
          - { when: { column: ALT, eq: 'S' }, column: ALT_DOC }
          - { column: DOC }
      location: { column: room.SITE, type: text }
  client:
    table: dbo.PAT
    key: ID
    where: { column: KIND, eq: 'P' }
    fields:
      name: { coalesce: [SOCIAL, FIRST] }
      description: { template: '{FIRST} {LAST}' }
      cpf: CPF
      birthday: { column: BORN, format: text, nullIf: ['0000-00-00'] }
    phones: [CEL, HOME]
  professional:
    table: DOC
    key: ID
    fields:
      name: NAME
      register: { template: 'CRM {CRM}/{UF}' }
      description: { sql: { sqlite: "'Dr #' || {ID}", mssql: "'Dr #' + CAST({ID} AS VARCHAR(10))" } }
    enabled: { column: HIDDEN, invert: true }
  location:
    table: SITE
    key: { column: CODE, type: text }
    fields:
      address: { template: '{STREET}, {NUM} - {AREA}' }
relations:
  - { between: [professional, location], via: appointment }
`

t.test('quirks of the mapping language, end to end on SQLite', async (t) => {
  const { get } = await scratchInstallation(t, SCHEMA, MAPPING)

  const { body: list } = await get('/appointments?start=2026-03-10&end=2026-03-12')
  t.same(list.map((a: any) => a.id), ['100', '101', '102', '103', '105'], 'base filter drops the deleted visit; ordered by date, hour')
  const [a100, a101, a102, a103, a105] = list
  t.equal(a105.state, 'CANCELED', "a lower-case 'x ' is the code 'X', as SQL Server's collations read it")
  t.equal(a100.hour, '09:30', 'hhmm integer 930')
  t.equal(a100.endHour, '10:00', 'duration in seconds')
  t.notOk('endHour' in a101, 'duration 0 is a sentinel: no end')
  t.equal(a102.state, 'CANCELED', "char(2) 'X ' matches 'X'")
  t.equal(a101.state, 'CONFIRMED')
  t.equal(a100.state, 'WAITING')
  t.equal(a101.professional.id, '8', 'rules: the alternate column when the flag is set')
  t.equal(a100.professional.id, '7')
  t.equal(a100.location.id, 'S1', 'two hops through a join')
  t.equal(a100.location.address, 'Rua A, 10 - Centro')
  t.equal(a101.location.address, 'Rua B - Vila', 'a blank template part drops its separator')
  t.equal(a100.client.id, '1', 'text id on one side, integer key on the other')
  t.equal(a100.client.phone, '+5511987654321')
  t.same(a100.client.allPhones, ['+5511987654321'], 'the same number without its ninth digit is de-duplicated')
  t.equal(a100.client.cpf, '12345678909')
  t.equal(a101.client.name, 'Bia', 'the social name first')
  t.equal(a101.client.description, 'Bruno', 'template with a blank part')
  t.notOk('birthday' in a101.client, "'0000-00-00' is none")
  t.equal(a101.client.phone, '+551133334444', 'extension dropped, default area code added')
  t.notOk('client' in a103, 'a client outside the base filter is not nested')

  for (const state of ['WAITING', 'CONFIRMED', 'CANCELED']) {
    const { body } = await get(`/appointments?start=2026-03-10&end=2026-03-12&state=${state}`)
    t.same(body.map((a: any) => a.id), list.filter((a: any) => a.state === state).map((a: any) => a.id), `SQL state filter = read state (${state})`)
  }
  const folded = await get('/appointments?start=2026-03-10&end=2026-03-12&state=waiting')
  t.match(folded, { status: 400, body: { errors: [{ path: '/querystring/state', message: /WAITING, CONFIRMED/ }] } }, 'a state filter is spelt as the vocabulary, never folded')
  for (const p of ['7', '8']) {
    const { body } = await get(`/appointments?start=2026-03-10&end=2026-03-12&professional=${p}`)
    t.same(body.map((a: any) => a.id), list.filter((a: any) => a.professional?.id === p).map((a: any) => a.id), `rule-decided professional filter (${p})`)
  }
  const { body: byLoc } = await get('/appointments?start=2026-03-10&end=2026-03-12&location=S2')
  t.same(byLoc.map((a: any) => a.id), ['101'], 'filter through a join')
  const { body: byClient } = await get('/appointments?start=2026-03-10&end=2026-03-12&client=1')
  t.same(byClient.map((a: any) => a.id), ['100', '102', '105'])
  t.same((await get('/appointments?start=2026-03-10&end=2026-03-12&professional=abc')).body, [], 'a non-numeric id for an integer column matches nothing')

  const { body: docs } = await get('/professionals')
  t.same(docs.map((d: any) => [d.id, d.register, d.description]), [['7', 'CRM 123/SP', 'Dr #7'], ['8', undefined, 'Dr #8']], 'template and sql escape hatch')
  t.equal(docs[1].register, undefined, 'a template whose every part is blank is absent')
  t.same((await get('/professionals?enabled=true')).body.map((d: any) => d.id), ['7'], 'inverted flag')
  t.same((await get('/professionals?location=S2')).body.map((d: any) => d.id), ['8'], 'relation via appointment')
  t.same((await get('/locations?professional=7')).body.map((l: any) => l.id), ['S1'])

  const search = async (term: string) => (await get(`/clients/search?term=${encodeURIComponent(term)}`)).body.map((c: any) => c.id)
  t.same(await search('+55 11 98765-4321'), ['1'])
  t.same(await search('1187654321'), ['1'], 'without the ninth digit')
  t.same(await search('123.456.789-09'), ['1'])
  t.same(await search('bia'), ['2'], 'name: case-insensitive')
  t.same(await search('ANA'), ['1'])
  t.same(await search('Staff'), [], 'outside the base filter')
})

t.test('compile errors point into the mapping file', async (t) => {
  const bad = MAPPING.replace('location: { column: room.SITE, type: text }', 'location: { column: rom.SITE, type: text }')
  const model = buildModel(parseMapping(bad, 'quirks.yaml'))
  const { sqlite } = await import('../../../src/sql/sqlite/dialect.js')
  try {
    compileMapping(model, sqlite)
    t.fail('should not compile')
  } catch (err) {
    t.ok(err instanceof MappingError)
    const issue = (err as MappingError).issues[0]
    t.equal(issue.path, '/resources/appointment/refs/location/column', 'the column key itself')
    t.match(issue.message, /no join called `rom`/)
    t.ok((issue.line ?? 0) > 0)
  }
})

t.test('composite keys: ids are the key values joined by idSeparator', async (t) => {
  const schema = `
    CREATE TABLE AG (UNIT INTEGER, NUM INTEGER, DAY TEXT, AT TEXT, ST TEXT, PAT INTEGER, DOC TEXT, PRIMARY KEY (UNIT, NUM));
    CREATE TABLE PROF (UNIT INTEGER, CODE TEXT, NAME TEXT, PRIMARY KEY (UNIT, CODE));
    CREATE TABLE PAT (ID INTEGER PRIMARY KEY, NAME TEXT);
    INSERT INTO PROF VALUES (1, 'A', 'Dr. A'), (2, 'A', 'Dr. A (unit 2)');
    INSERT INTO PAT VALUES (5, 'Paciente');
    INSERT INTO AG VALUES (1, 100, '2026-03-10', '09:00', 'A', 5, 'A'), (2, 100, '2026-03-10', '10:00', 'A', 5, 'A'), (2, 101, '2026-03-11', '10:00', 'C', 5, 'A');
  `
  const mapping = `
version: 1
installation: composite
idSeparator: '-'
resources:
  appointment:
    table: AG
    key: [UNIT, NUM]
    start: { date: { column: DAY, format: text }, hour: AT }
    state: { column: ST, map: { A: WAITING, C: CONFIRMED } }
    refs:
      client: PAT
      professional: { template: '{UNIT}-{DOC}' }
  client: { table: PAT, key: ID, fields: { name: NAME } }
  professional:
    table: PROF
    key: [UNIT, { column: CODE, type: text }]
    fields: { name: NAME }
relations:
  - { between: [professional, client], via: appointment }
`
  const { get, call } = await scratchInstallation(t, schema, mapping)
  const patch = async (url: string, payload: object) => (await call('PATCH', url, payload)).status

  const { body: list } = await get('/appointments?start=2026-03-10&end=2026-03-11')
  t.same(list.map((a: any) => [a.id, a.professional?.id]), [['1-100', '1-A'], ['2-100', '2-A'], ['2-101', '2-A']])
  t.equal(list[1].professional.name, 'Dr. A (unit 2)', 'nested through a composite id')
  t.same((await get('/appointments/2-101')).body.state, 'CONFIRMED')
  t.equal((await get('/appointments/2')).status, 404, 'a partial id matches nothing')
  t.equal((await get('/appointments/x-101')).status, 404, 'a part of the wrong type matches nothing')
  t.same((await get('/appointments?start=2026-03-10&end=2026-03-11&professional=2-A')).body.map((a: any) => a.id), ['2-100', '2-101'])
  t.same((await get('/professionals/1-A')).body, { id: '1-A', name: 'Dr. A' })
  t.equal(await patch('/appointments/1-100/state', { state: 'CONFIRMED' }), 200, 'state moves update by every key column')
  t.same((await get('/appointments?start=2026-03-10&end=2026-03-10&state=CONFIRMED')).body.map((a: any) => a.id), ['1-100'])
  const created = await call('POST', '/appointments', { date: '2099-01-01', hour: '10:00', client: '5' })
  t.equal(created.status, 501, 'a composite key Ponte cannot generate: not writable, said plainly')
  t.match(created.body.detail, /composite key/)
})
