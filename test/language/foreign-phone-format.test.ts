// What a stranger could not trust going live on a Lisbon schema ("AgendaPro"), on every test
// database: birth dates written in the column's own DD.MM.YYYY (and check failing a write in
// another spelling), a British number outside the library's ranges read, found and registered,
// foreign numbers written as desks type them, a NIF mapped as `cpf` warned of, and a reschedule
// probe that clashes with the clinic's own bookings trying another client before giving up.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { agendaproMapping, agendaproSchema, TODAY, type AgendaProMapping } from '../helpers/agendapro-clinic.js'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-agendapro-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

async function check (s: ServerScratch, m: AgendaProMapping): Promise<string[]> {
  const file = join(dir, `mapping-${files++}.yaml`)
  writeFileSync(file, agendaproMapping(m))
  const inst = await openInstallation(file, s.url, undefined, { structural: 'skip' })
  try {
    return (await checkInstallation(inst, TODAY)).lines
  } finally {
    await inst.close()
  }
}

const DOTTED = { birthday: "{ column: born, format: dmy, separator: '.' }" }

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('format: dmy alone writes slashes into a dotted column: check fails the write, naming separator', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping())
      const lines = await check(s, {})
      const said = lines.filter((l) => /client fields\.birthday: POST \/clients: a write stores `99\/99\/9999` but 4 of 4 stored birthdays are spelt `99\.99\.9999`/.test(l))
      t.equal(said.length, 1, lines.join('\n'))
      t.match(said[0], /^✗ \S+:\d+:\d+: /, 'a problem, at the birthday\'s line')
      t.match(said[0], /give `separator: '\.'` beside `format: dmy`/)
      t.ok(lines.some((l) => /client fields\.birthday: PATCH \/clients birthday: a write stores `99\/99\/9999`/.test(l)), 'the PATCH too')
      t.match(lines[lines.length - 1], /^check found \d+ problems?$/, 'never passed')
    })

    t.test('separator: \'.\' stores DD.MM.YYYY, read back from the database; check proves it', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping(DOTTED))
      const made = await s.call('POST', '/clients', { name: 'Sarah Whitfield', phone: '+447911123456', birthday: '1990-07-14' })
      t.equal(made.status, 200, JSON.stringify(made.body))
      t.equal(made.body.birthday, '1990-07-14')
      const id = String(made.body.id)
      t.same((await s.rows(`SELECT born FROM person WHERE person_no = ${id}`)).map((r) => r.born), ['14.07.1990'], 'stored as the other rows are')
      const patched = await s.call('PATCH', `/clients/${id}`, { birthday: '1979-09-30' })
      t.equal(patched.status, 200, JSON.stringify(patched.body))
      t.same((await s.rows(`SELECT born FROM person WHERE person_no = ${id}`)).map((r) => r.born), ['30.09.1979'])
      t.equal((await s.call('GET', `/clients/${id}`)).body.birthday, '1979-09-30', 'and read back')
      const lines = await check(s, DOTTED)
      t.notOk(lines.some((l) => /stored birthdays are spelt/.test(l)), lines.join('\n'))
      t.ok(lines.some((l) => /✓ client write: POST \/clients: name, phone, email, birthday written/.test(l)), lines.join('\n'))
    })

    t.test('a British number outside the library\'s ranges: read, found, registered as sent; a wrong length named', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping(DOTTED))
      const emily = await s.call('GET', '/clients/3')
      t.equal(emily.body.phone, '+447700900123', 'the stored +44 7700 900123 is her phone')
      const found = await s.call('GET', '/clients/search?term=%2B447700900123')
      t.same(found.body.map((c: { id: string }) => c.id), ['3'], 'a search by the number finds her')
      const made = await s.call('POST', '/clients', { name: 'Sarah Whitfield', phone: '+447700900124' })
      t.equal(made.status, 200, JSON.stringify(made.body))
      t.equal(made.body.phone, '+447700900124')
      t.same((await s.rows(`SELECT value FROM person_contact WHERE kind = 'MOB' AND person_no = ${String(made.body.id)}`)).map((r) => r.value), ['+44 7700 900124'],
        'stored with foreignPhoneFormat: international, as the desk types it')
      t.same((await s.call('GET', '/clients/search?term=%2B447700900124')).body.map((c: { id: string }) => c.id), [String(made.body.id)], 'and found by it')
      const short = await s.call('POST', '/clients', { name: 'Too Short', phone: '+4477009' })
      t.equal(short.status, 400)
      t.same(short.body.errors, [{ path: '/body/phone', message: 'has too few digits for a number of +44' }])
      const local = await s.call('POST', '/clients', { name: 'Not Here', phone: '07911 123456' })
      t.equal(local.status, 400)
      t.equal(local.body.errors[0].message, 'has too many digits for a number of PT (the clinic\'s country): a number of another country needs its country code (e.g. +447911123456)')
    })

    t.test('check counts clients as the server answers them, and names only the unreadable phone', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping(DOTTED))
      t.equal((await s.call('GET', '/clients/4')).body.phone, undefined, 'client 4\'s 12345 is answered as no phone')
      const lines = await check(s, DOTTED)
      t.ok(lines.some((l) => /✓ client: 4 rows read; 1 answered without a phone/.test(l)), lines.join('\n'))
      const phones = lines.filter((l) => /client phones\[0\]: .*cannot be read/.test(l))
      t.equal(phones.length, 1, lines.join('\n'))
      t.match(phones[0], /1 client has a phone that cannot be read, e\.g\. id 4: /)
      t.match(phones[0], /with its country code and the right number of digits/)
    })

    t.test('a NIF mapped as cpf: check warns with the counts at the cpf line', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping({ ...DOTTED, nifAsCpf: true }))
      const lines = await check(s, { ...DOTTED, nifAsCpf: true })
      const said = lines.filter((l) => /client fields\.cpf: 3 of 3 stored values are not valid CPFs, e\.g\. id 1: /.test(l))
      t.equal(said.length, 1, lines.join('\n'))
      t.match(said[0], /^! \S+:\d+:\d+: /)
      t.match(said[0], /left unmapped, or mapped as `externalId`/)
      const quiet = await check(s, DOTTED)
      t.notOk(quiet.some((l) => /not valid CPFs/.test(l)), 'as externalId: nothing said')
    })

    t.test('the reschedule probe clashing with the client\'s own booking tries another client, and proves the move', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect, { manyClients: true }), agendaproMapping(DOTTED))
      const lines = await check(s, DOTTED)
      t.ok(lines.some((l) => /✓ appointment write: PATCH …\/time: /.test(l)), lines.join('\n'))
      t.notOk(lines.some((l) => /not proven/.test(l)), lines.join('\n'))
      t.equal(lines[lines.length - 1], 'check passed')
      t.same((await s.rows('SELECT COUNT(*) AS n FROM slot')).map((r) => Number(r.n)), [5], 'every probe rolled back')
    })

    t.test('when every client and time clashes: a warning saying what to do, and a qualified verdict', async (t) => {
      const s = await scratchOn(t, dialect, agendaproSchema(dialect), agendaproMapping(DOTTED))
      const lines = await check(s, DOTTED)
      const said = lines.filter((l) => /appointment write: PATCH …\/time: not proven: each of the 12 clients and times tried clashed/.test(l))
      t.equal(said.length, 1, lines.join('\n'))
      t.match(said[0], /^! /)
      t.match(said[0], /\(last: The client already has an appointment at \d\d:\d\d on 2031-03-04\.\)/)
      t.match(said[0], /run check with `--today`/)
      t.equal(lines[lines.length - 1], 'check passed, but one write path not proven: see the ! lines above')
    })
  })
}

t.test('separator without format: dmy is refused at its line, saying what goes with it', async (t) => {
  const yaml = agendaproMapping({ birthday: "{ column: born, format: text, separator: '.' }" })
  let said = 'accepted'
  try { buildModel(parseMapping(yaml, 'agendapro.yaml')) } catch (err) { said = err instanceof MappingError ? err.message : String(err) }
  t.match(said, /client\/fields\/birthday.*`separator` says how a `format: dmy` date is spelt: give `format: dmy` beside it/s)
})
