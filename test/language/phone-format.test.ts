// Issue 27: `phoneFormat` as a mask of `#`s (Open Dental keeps `(503)555-0142`, no space; other
// North American desks `503-555-0142`, `503.555.0142`, `(503) 555-0142`, `(503)-555-0142`).
// On a US practice generated in the test, on every test database: a new client's number is
// written in the mask, read back from the database as spelt, found by a search by its E.164 and
// by that spelling (the mask's spelling probed first, so check finds every such stored phone);
// another country's number is still stored in E.164, and a number the mask cannot hold is refused.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { PORTLAND_SCHEMA, portlandMapping } from '../helpers/portland-practice.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const MASKS = [
  { mask: '(###)###-####', stored: '(503)555-0199' },
  { mask: '###-###-####', stored: '503-555-0199' },
  { mask: '###.###.####', stored: '503.555.0199' },
  { mask: '(###) ###-####', stored: '(503) 555-0199' },
  // No probe of the named formats spells a number so: found because the mask is probed.
  { mask: '(###)-###-####', stored: '(503)-555-0199' }
]

const found = async (call: (m: string, u: string) => Promise<{ body: any }>, term: string): Promise<string[]> =>
  (await call('GET', `/clients/search?term=${encodeURIComponent(term)}`)).body.map((c: { id: string }) => c.id)

for (const dialect of testDialects()) {
  t.test(`${dialect}: a national number is written in the mask, read back and found by both spellings`, async (t) => {
    for (const { mask, stored } of MASKS) {
      const yaml = portlandMapping({ phoneFormat: `'${mask}'` })
      const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, yaml)
      const made = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+1 503 555 0199' })
      t.equal(made.status, 200, `${mask}: ${JSON.stringify(made.body)}`)
      const id = String(made.body.id)
      t.same((await s.rows(`SELECT hm_phone FROM patient WHERE pat_num = ${id}`)).map((r) => r.hm_phone), [stored], `${mask}: stored as ${stored}`)
      t.equal((await s.call('GET', `/clients/${id}`)).body.phone, '+15035550199', 'read back as the number sent')
      t.same(await found(s.call, '+15035550199'), [id], `${mask}: found by its E.164`)
      t.same(await found(s.call, stored), [id], `${mask}: found by the spelling stored`)
      // A number of another country keeps its country code (existing rule), and is found the same.
      const abroad = await s.call('POST', '/clients', { name: 'Olly Grant', phone: '+447911123456' })
      t.equal(abroad.status, 200, JSON.stringify(abroad.body))
      t.same((await s.rows(`SELECT hm_phone FROM patient WHERE pat_num = ${String(abroad.body.id)}`)).map((r) => r.hm_phone), ['+447911123456'], 'another country\'s number in E.164')
      t.same(await found(s.call, '+447911123456'), [String(abroad.body.id)])
      // The desk's own rows, in Open Dental's spelling and in dots, are found by E.164 whatever the mask.
      t.same(await found(s.call, '+15035550142'), ['1'], 'the stored (503)555-0142')
      t.same(await found(s.call, '+15035550177'), ['2'], 'the stored 503.555.0177')
    }
  })

  t.test(`${dialect}: check finds every phone stored in the mask's spelling, and proves the write`, async (t) => {
    const yaml = portlandMapping({ phoneFormat: "'(###)-###-####'" })
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, yaml)
    await s.rows("UPDATE patient SET wk_phone = '(503)-555-0166' WHERE pat_num = 1")
    const report = await checkOf(t, s.url, yaml)
    t.ok(report.lines.some((l) => /✓ client phones\[1\]: all 2 stored phones are found by a phone search's probes/.test(l)), report.lines.join('\n'))
    t.ok(report.lines.some((l) => /✓ client write: POST \/clients: name, phone written/.test(l)), report.lines.join('\n'))
    t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n'))
  })

  t.test(`${dialect}: a number whose digits the mask cannot hold is refused, naming phone, nothing written`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, portlandMapping({ phoneFormat: "'###-####'" }))
    const refused = await s.call('POST', '/clients', { name: 'Rosa Delgado', phone: '+15035550199' })
    t.equal(refused.status, 400)
    t.same(refused.body.errors, [{ path: '/body/phone', message: 'has another number of digits than this installation stores its numbers with (7, as `###-####`)' }])
    t.same((await s.rows('SELECT COUNT(*) AS n FROM patient')).map((r) => Number(r.n)), [2], 'no row added')
  })
}

t.test('a mask with characters phones are not spelt with is refused at its line', async (t) => {
  let said = 'accepted'
  try { buildModel(parseMapping(portlandMapping({ phoneFormat: "'Tel: ###-###-####'" }), 'x.yaml')) } catch (err) { said = err instanceof MappingError ? err.message : String(err) }
  t.match(said, /x\.yaml:\d+:\d+.*client\/write\/phoneFormat/s)
  t.doesNotThrow(() => buildModel(parseMapping(portlandMapping({ phoneFormat: "'(###)###-####'" }), 'x.yaml')), 'a mask of #s and punctuation is a phoneFormat')
})
