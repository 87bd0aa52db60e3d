// check's birthday-spelling finding: a write spelt unlike the clear majority of stored rows is
// reported, even after one such row already went live; a mixed column says nothing.
import t from 'tap'
import { unlikeStored } from '../../../src/check/stored-spellings.js'

t.test('a spelling unlike the majority is reported, with the separator to give', async (t) => {
  const dotted = new Map([['99.99.9999', 40]])
  t.match(unlikeStored('31/12/1990', dotted), /stores `99\/99\/9999` but 40 of 40 stored birthdays are spelt `99\.99\.9999` \(none `99\/99\/9999`\).*separator: '\.'/, 'none stored yet')
  const afterFirstWrite = new Map([['99.99.9999', 40], ['99/99/9999', 1]])
  t.match(unlikeStored('31/12/1990', afterFirstWrite), /\(only 1 `99\/99\/9999`\)/, 'one row written in the other spelling does not silence it')
  t.equal(unlikeStored('31.12.1990', afterFirstWrite), undefined, 'the majority\'s spelling is fine')
  t.match(unlikeStored('31/12/1990', new Map([['9999-99-99', 9]])), /give `format: text`/, 'ISO rows: the format to give')
})

t.test('no clear majority, no rows, or nothing written: nothing to say', async (t) => {
  t.equal(unlikeStored('31/12/1990', new Map([['99.99.9999', 5], ['99/99/9999', 5]])), undefined, 'half and half')
  t.equal(unlikeStored('31/12/1990', new Map()), undefined, 'no stored birthdays')
  t.equal(unlikeStored('31/12/1990', undefined), undefined, 'not read')
  t.equal(unlikeStored(null, new Map([['99.99.9999', 4]])), undefined, 'no birthday written')
})
