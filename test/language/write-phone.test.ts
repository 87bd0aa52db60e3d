// Issue 27: with a home, a work and a wireless column, `write.phone` names the one a new
// client's phone goes to (the wireless: the number a conversation comes from), and the other
// columns of `phones` take `allPhones`, in their order; more numbers than columns are refused
// naming allPhones, with nothing written. On a US practice generated in the test, on every test
// database: read back from the database, found by E.164 and by the stored spelling.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { PORTLAND_SCHEMA, portlandMapping } from '../helpers/portland-practice.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const MAPPING = portlandMapping({ phoneFormat: "'(###)###-####'", phoneColumn: 'wireless_phone' })
const phonesOf = async (rows: (sql: string) => Promise<Array<Record<string, any>>>, id: string): Promise<unknown[]> =>
  (await rows(`SELECT hm_phone, wk_phone, wireless_phone FROM patient WHERE pat_num = ${id}`)).map((r) => [r.hm_phone, r.wk_phone, r.wireless_phone])[0] ?? []

for (const dialect of testDialects()) {
  t.test(`${dialect}: the phone goes to the column write.phone names, allPhones to the others in order`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, MAPPING)
    const found = async (term: string): Promise<string[]> => (await s.call('GET', `/clients/search?term=${encodeURIComponent(term)}`)).body.map((c: { id: string }) => c.id)

    const one = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+15035550199' })
    t.equal(one.status, 200, JSON.stringify(one.body))
    const rosa = String(one.body.id)
    t.same(await phonesOf(s.rows, rosa), [null, null, '(503)555-0199'], 'the wireless column, not the first of phones')
    t.same([one.body.phone, one.body.allPhones], ['+15035550199', ['+15035550199']], 'read back as sent')
    t.same(await found('+15035550199'), [rosa], 'found by E.164')
    t.same(await found('(503)555-0199'), [rosa], 'found by the stored spelling')

    // allPhones: the phone itself (sent again) is not written twice; the rest go home, then work.
    const all = await s.call('POST', '/clients', { name: 'Sam Okafor', phone: '+15035550111', allPhones: ['+15035550111', '(971) 555-0122', '503.555.0133'] })
    t.equal(all.status, 200, JSON.stringify(all.body))
    const sam = String(all.body.id)
    t.same(await phonesOf(s.rows, sam), ['(971)555-0122', '(503)555-0133', '(503)555-0111'], 'home, work, then the wireless the phone went to')
    t.same([...all.body.allPhones].sort(), ['+15035550111', '+15035550133', '+19715550122'], 'every number read back')
    for (const [e164, spelt] of [['+19715550122', '(971)555-0122'], ['+15035550133', '(503)555-0133'], ['+15035550111', '(503)555-0111']]) {
      t.same(await found(e164), [sam], `${e164} found`)
      t.same(await found(spelt), [sam], `${spelt} found`)
    }
    // Another country's number keeps its E.164 in its column.
    const abroad = await s.call('POST', '/clients', { name: 'Olly Grant', phone: '+15035550144', allPhones: ['+447911123456'] })
    t.equal(abroad.status, 200, JSON.stringify(abroad.body))
    t.same(await phonesOf(s.rows, String(abroad.body.id)), ['+447911123456', null, '(503)555-0144'])
    t.same(await found('+447911123456'), [String(abroad.body.id)])

    // Three numbers besides the phone, two columns for them: refused by name, nothing written.
    const before = (await s.rows('SELECT COUNT(*) AS n FROM patient')).map((r) => Number(r.n))
    const many = await s.call('POST', '/clients', { name: 'Too Many', phone: '+15035550155', allPhones: ['+15035550156', '+15035550157', '+15035550158'] })
    t.equal(many.status, 400)
    t.same(many.body.errors, [{ path: '/body/allPhones', message: 'holds 3 numbers besides phone, and this installation keeps 2 other phone columns for them (`hm_phone`, `wk_phone`)' }])
    const bad = await s.call('POST', '/clients', { name: 'Bad Number', phone: '+15035550155', allPhones: ['12'] })
    t.equal(bad.status, 400)
    t.equal(bad.body.errors[0].path, '/body/allPhones/0', 'an unreadable number named by its place')
    t.same((await s.rows('SELECT COUNT(*) AS n FROM patient')).map((r) => Number(r.n)), before, 'no row added')
  })

  t.test(`${dialect}: without write.phone the first column takes it, and extra numbers are refused by name`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, portlandMapping({ phoneFormat: "'(###)###-####'" }))
    const made = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+15035550199', allPhones: ['+15035550199'] })
    t.equal(made.status, 200, JSON.stringify(made.body))
    t.same(await phonesOf(s.rows, String(made.body.id)), ['(503)555-0199', null, null], 'the first of phones')
    const more = await s.call('POST', '/clients', { name: 'Sam Okafor', phone: '+15035550111', allPhones: ['+15035550112'] })
    t.equal(more.status, 400)
    t.equal(more.body.errors[0].path, '/body/allPhones')
    t.match(more.body.errors[0].message, /no other phone column to write them to .*write\.phone/)
  })

  t.test(`${dialect}: check proves the write to the named column`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, MAPPING)
    const report = await checkOf(t, s.url, MAPPING)
    t.ok(report.lines.some((l) => /✓ client write: POST \/clients: name, phone written, read back as sent by the mapping and as stored/.test(l)), report.lines.join('\n'))
    t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n'))
  })
}

t.test('write.phone names a plain column of phones, only for a client', async (t) => {
  const refused = (yaml: string): string => {
    try { buildModel(parseMapping(yaml, 'x.yaml')); return 'accepted' } catch (err) { return err instanceof MappingError ? err.message : String(err) }
  }
  t.match(refused(portlandMapping({ phoneColumn: 'fax_phone' })), /x\.yaml:\d+:\d+.*client\/write\/phone.*`fax_phone` is not a plain column among `phones` \(`hm_phone`, `wk_phone`, `wireless_phone`\)/s)
  t.match(refused(portlandMapping().replace('write: { key: { generate: max } }', 'write: { key: { generate: max }, phone: apt_time }')), /appointment\/write\/phone.*only under the client's `write`/s)
})

// Open Dental keeps its phone columns NOT NULL DEFAULT '': a number not sent leaves the column's
// default, as the desk program does, never a NULL the database refuses (a 400 blaming allPhones).
for (const dialect of testDialects()) {
  t.test(`${dialect}: phone columns NOT NULL DEFAULT '' keep their default when no number is sent for them`, async (t) => {
    const schema = PORTLAND_SCHEMA.replace('hm_phone VARCHAR(30), wk_phone VARCHAR(30), wireless_phone VARCHAR(30)',
      "hm_phone VARCHAR(30) NOT NULL DEFAULT '', wk_phone VARCHAR(30) NOT NULL DEFAULT '', wireless_phone VARCHAR(30) NOT NULL DEFAULT ''")
      .replace(/^(INSERT INTO patient .*)$/gm, (line) => line.replace(/\bNULL\b/g, "''"))
    t.not(schema, PORTLAND_SCHEMA, 'the schema changed')
    const s = await scratchOn(t, dialect, schema, MAPPING)
    const one = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+15035550199' })
    t.equal(one.status, 200, JSON.stringify(one.body))
    t.same(await phonesOf(s.rows, String(one.body.id)), ['', '', '(503)555-0199'], 'the defaults, and the wireless number')
    t.same([one.body.phone, one.body.allPhones], ['+15035550199', ['+15035550199']])
  })
}

// Found going live on Open Dental: `write.set: { HmPhone: { value: '' } }` on nullable phone
// columns loaded and passed check, and new patients still got NULL there. A column `set` names
// keeps that value when no number goes to it; a number sent for it wins.
for (const dialect of testDialects()) {
  t.test(`${dialect}: a phone column write.set fills keeps its value when no number is sent for it`, async (t) => {
    const mapping = MAPPING.replace('      phone: wireless_phone\n', "      phone: wireless_phone\n      set: { hm_phone: { value: '' }, wk_phone: { value: '' } }\n")
    t.not(mapping, MAPPING, 'the mapping changed')
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, mapping)
    const one = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+15035550199' })
    t.equal(one.status, 200, JSON.stringify(one.body))
    t.same(await phonesOf(s.rows, String(one.body.id)), ['', '', '(503)555-0199'], 'the set values, and the wireless number')
    const two = await s.call('POST', '/clients', { name: 'Sam Okafor', phone: '+15035550111', allPhones: ['(971) 555-0122'] })
    t.equal(two.status, 200, JSON.stringify(two.body))
    t.same(await phonesOf(s.rows, String(two.body.id)), ['(971)555-0122', '', '(503)555-0111'], 'the number sent wins over the set value')
    t.same([...two.body.allPhones].sort(), ['+15035550111', '+19715550122'], 'read back as sent')
  })
}
