// The table of what each `phoneFormat` writes in docs/mapping.md is what Ponte writes: each
// cell is toStoredPhone of its column's number on an installation of that number's country,
// and reads back as the same number. A stranger going live picks a format by this table.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { toE164, toStoredPhone, type StoredPhoneFormat } from '../../../src/normalise/phone.js'

const doc = readFileSync(new URL('../../../docs/mapping.md', import.meta.url), 'utf8')
const lines = doc.split('\n')
const head = lines.findIndex((l) => l.startsWith('| `phoneFormat` |'))

t.test('the table is there, with BR, PT, US, CA, GB and DE numbers', async (t) => {
  t.ok(head >= 0, 'docs/mapping.md has the phoneFormat table')
  t.match(lines[head], /\| BR `\+55\d+` .*\| PT `\+351\d+` .*\| US `\+1\d+` \| CA `\+1\d+` \| GB `\+44\d+` \| DE `\+49\d+` \|$/)
})

t.test('each cell is what Ponte writes, and reads back as the number', async (t) => {
  const cells = (line: string): string[] => line.split('|').slice(1, -1).map((c) => c.trim())
  const numbers = cells(lines[head]).slice(1).map((c) => /^([A-Z]{2}) `(\+\d+)`$/.exec(c)?.slice(1) as [string, string])
  const rows = lines.slice(head + 2).filter((l) => l.startsWith('| `')).map(cells)
  t.same(rows.map((r) => r[0]), ['`e164`', '`digits`', '`national`', '`masked`', '`dashed`', '`international`'], 'every format, once')
  for (const row of rows) {
    const format = row[0].replace(/`/g, '') as StoredPhoneFormat
    numbers.forEach(([country, e164], i) => {
      const written = toStoredPhone(e164, format, country)
      t.equal(row[i + 1], `\`${written}\``, `${format} of ${e164} on a ${country} installation`)
      t.equal(toE164(written, { defaultCountry: country }), e164, `${written} reads back`)
    })
  }
})

t.test('foreignPhoneFormat: another country\'s number keeps its code, spaced as the doc says', async (t) => {
  t.match(doc, /`foreignPhoneFormat: international` spaced as desks type foreign numbers \(`\+44 7911 123456`\)/)
  t.equal(toStoredPhone('+447911123456', 'masked', 'PT', 'international'), '+44 7911 123456')
  t.equal(toStoredPhone('+447911123456', 'masked', 'PT'), '+447911123456', 'E.164 by default')
  t.equal(toStoredPhone('+351912345678', 'masked', 'PT', 'international'), '912 345 678', 'the clinic\'s own numbers keep phoneFormat')
  t.equal(toE164('+44 7911 123456', { defaultCountry: 'PT' }), '+447911123456', 'and reads back')
})
