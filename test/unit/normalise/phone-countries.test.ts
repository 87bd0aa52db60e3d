// Phones outside Brazil (issue 27 item 7): a local number stored without its area code reads
// as E.164 in the installation's country (NANP's 7-digit locals, London's and Berlin's of any
// length; Portugal has none), a search probes the spellings that country's desks type, and
// `dashed` writes the national spelling '905-555-0102'. Brazil's own rules are in phone.test.ts.
import t from 'tap'
import { phoneProbes, probesFind, toE164, toStoredPhone, PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS, type PhoneOptions } from '../../../src/normalise/phone.js'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { MappingError } from '../../../src/mapping/errors.js'

const HAMILTON: PhoneOptions = { defaultCountry: 'CA', defaultAreaCode: '905' }

t.test('a local number takes the default area code, in any country', async (t) => {
  t.equal(toE164('555-0143', HAMILTON), '+19055550143', 'NANP: 7 digits')
  t.equal(toE164('555 0143 x22', HAMILTON), '+19055550143', 'with an extension')
  t.equal(toE164('555-0143', { defaultCountry: 'US', defaultAreaCode: '905' }), '+19055550143', 'a US installation near the border')
  t.equal(toE164('555-0143', { defaultCountry: 'CA' }), undefined, 'no area code configured: not read, as before')
  t.equal(toE164('7946 0018', { defaultCountry: 'GB', defaultAreaCode: '020' }), '+442079460018', 'London, area code with its trunk 0')
  t.equal(toE164('7946 0018', { defaultCountry: 'GB', defaultAreaCode: '20' }), '+442079460018', 'and without')
  t.equal(toE164('123456', { defaultCountry: 'DE', defaultAreaCode: '030' }), '+4930123456', 'Berlin, a 6-digit local')
  t.equal(toE164('3456789', { defaultCountry: 'PT' }), undefined, 'Portugal: 9 digits or nothing')
  t.equal(toE164('912 345 678', { defaultCountry: 'PT' }), '+351912345678')
})

t.test('a whole number never gets a second area code', async (t) => {
  t.equal(toE164('(416) 555-0107', HAMILTON), '+14165550107', 'Toronto stays Toronto')
  t.equal(toE164('1-905-555-0106', HAMILTON), '+19055550106', 'the long-distance 1')
  t.equal(toE164('030 123456', { defaultCountry: 'DE', defaultAreaCode: '089' }), '+4930123456', 'Berlin in a Munich clinic')
  t.equal(toE164('0161 496 0000', { defaultCountry: 'GB', defaultAreaCode: '020' }), '+441614960000', 'Manchester in a London clinic')
  t.equal(toE164('+5511928087886', HAMILTON), '+5511928087886', 'a Brazilian mobile in E.164')
  t.equal(toE164('55-01', HAMILTON), undefined, 'too short even with the area code')
})

t.test('NANP: every spelling a desk types is probed, and reads as the number', async (t) => {
  const probes = phoneProbes('+19055550102', HAMILTON)
  t.ok(probes.exact.length <= PHONE_EXACT_SLOTS && probes.prefixes.length <= PHONE_PREFIX_SLOTS, 'fits the statement')
  for (const stored of ['905-555-0102', '905.555.0102', '(905) 555-0102', '(905)555-0102', '905 555 0102', '9055550102',
    '1-905-555-0102', '1 905 555 0102', '19055550102', '1 (905) 555-0102', '+19055550102', '+1 905 555 0102', '+1 (905) 555-0102',
    '+1 905-555-0102', '+1-905-555-0102', '555-0102', '5550102', '905-555-0102 x12', '(905) 555-0102 ext. 12', '905.555.0102 x3',
    '905 555 0102 x12', '9055550102x12', '1-905-555-0102 ext 4', '555-0102 x9', '905-555-0102        ']) {
    t.equal(toE164(stored, HAMILTON), '+19055550102', `${stored} reads as the number`)
    t.ok(probesFind(stored, probes, false), `${stored} is probed`)
  }
  t.notOk(phoneProbes('+14165550107', HAMILTON).exact.includes('555-0107'), 'no local form for another area code')
  t.notOk(probesFind('905/555/0102', probes, false), 'an unforeseen spelling is not (check reports it)')
})

t.test('other countries: their national format and its groups, locals for the default area code', async (t) => {
  const london = { defaultCountry: 'GB', defaultAreaCode: '020' }
  const gb = phoneProbes('+442079460018', london)
  for (const stored of ['020 7946 0018', '020-7946-0018', '02079460018', '2079460018', '(020) 7946 0018', '7946 0018', '+44 20 7946 0018', '020 7946 0018 ext 5']) {
    t.equal(toE164(stored, london), '+442079460018', `${stored} reads as the number`)
    t.ok(probesFind(stored, gb, false), `${stored} is probed`)
  }
  const lisbon = { defaultCountry: 'PT' }
  const pt = phoneProbes('+351912345678', lisbon)
  for (const stored of ['912345678', '912 345 678', '+351 912 345 678', '+351912345678', '912-345-678']) t.ok(probesFind(stored, pt, false), `${stored} is probed`)
  t.ok(pt.exact.length <= PHONE_EXACT_SLOTS && pt.prefixes.length <= PHONE_PREFIX_SLOTS)
})

t.test('dashed: the national spelling for the installation\'s country, E.164 for another', async (t) => {
  t.equal(toStoredPhone('+19055550102', 'dashed', 'CA'), '905-555-0102')
  t.equal(toStoredPhone('+12015550123', 'dashed', 'CA'), '201-555-0123', 'NANP shares one calling code')
  t.equal(toStoredPhone('+442079460018', 'dashed', 'GB'), '020-7946-0018')
  t.equal(toStoredPhone('+5511928087886', 'dashed', 'CA'), '+5511928087886', 'a Brazilian traveller, kept whole')
  t.equal(toStoredPhone('+19055550102', 'dashed', 'BR'), '+19055550102', 'a Canadian in Brazil, kept whole')
  t.equal(toStoredPhone('+5511987654321', 'masked', 'BR'), '(11) 98765-4321', 'Brazil\'s mask unchanged')
  t.equal(toStoredPhone('+5511987654321', 'national', 'BR'), '11987654321', 'Brazil\'s national unchanged')
})

t.test('a country the phone library does not know is refused at its line', async (t) => {
  const yaml = (country: string): string => `version: 1
installation: x
phone: { defaultCountry: ${country}, defaultAreaCode: '905' }
resources:
  appointment: { table: a, key: id, start: { datetime: at }, state: { column: st, map: { A: WAITING } }, refs: { client: cid } }
  client: { table: c, key: id, fields: { name: nm }, phones: [ph] }
`
  t.doesNotThrow(() => buildModel(parseMapping(yaml('CA'), 'm.yaml')))
  try {
    buildModel(parseMapping(yaml('XA'), 'm.yaml'))
    t.fail('accepted')
  } catch (err) {
    t.ok(err instanceof MappingError)
    t.same((err as MappingError).issues.map((i) => [i.path, i.line]), [['/phone/defaultCountry', 3]])
    t.match((err as MappingError).issues[0].message, /`XA` is not a country the phone library knows/)
  }
})
