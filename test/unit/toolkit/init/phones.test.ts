// The clinic's phone country read from the shapes of stored numbers (`ponte init`, issue 27):
// NANP groups and masks tell US and Canada from Brazil, a Brazilian DDD and short local numbers
// give the area code, and numbers two countries read alike leave the country unsaid.
import t from 'tap'
import { phoneHome } from '../../../../src/toolkit/init/phones.js'

t.test('Open Dental\'s (503)555-0142 spellings: US, their own mask (masked would add a space)', async (t) => {
  const home = phoneHome(['(503)555-0142', '(971)555-0188', '(360)555-0123'])
  t.equal(home?.country, 'US')
  t.equal(home?.format?.name, '(###)###-####')
  t.equal(home?.areaCode, undefined)
  t.notMatch(home?.seen, /\d{3}\)?\d{3}-\d{4}/, 'no number in what is said')
  t.equal(phoneHome(['(503) 555-0142', '(971) 555-0188'])?.format?.name, 'masked', 'spelt as masked writes them: masked')
})

t.test('dashed Toronto numbers are Canadian, not Brazilian DDD 41', async (t) => {
  const home = phoneHome(['416-555-0112', '647-555-0124', '437-555-0136'])
  t.equal(home?.country, 'CA')
  t.equal(home?.format?.name, 'dashed')
})

t.test('Brazilian masks with DDD, some numbers without: BR, and how many lack one beside the most frequent DDD', async (t) => {
  const home = phoneHome(['(11) 98765-4321', '(11) 3333-4444', '(21) 99876-5432', '98765-1234', '3344-5566'])
  t.equal(home?.country, 'BR')
  t.same(home?.areaCode, { short: 2, top: '11' }, 'counted for a TODO, never written as the default')
  t.equal(home?.format?.name, 'masked')
})

t.test('ten bare digits NANP and Brazil both read: no country', async (t) => {
  const home = phoneHome(['2133551014', '3123552014', '2133553014'])
  t.equal(home?.country, undefined)
  t.match(home?.seen, /BR and US alike/)
})

t.test('country codes decide, and numbers without one are read as that country\'s', async (t) => {
  t.equal(phoneHome(['+351 912 345 678', '936 555 123', '00351 965 432 109'])?.country, 'PT')
  t.equal(phoneHome(['n/a', 'none']), undefined, 'nothing like a phone: nothing said')
})
