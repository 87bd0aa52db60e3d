import t from 'tap'
import {
  parsePhoneInput,
  phoneKeys,
  phoneSearchFragment,
  samePhone,
  toE164,
  toStoredPhone,
} from '../../../src/normalise/phone.js'

const BR = { defaultCountry: 'BR' }
const BR_SP = { defaultCountry: 'BR', defaultAreaCode: '11' }

t.test('toE164 reads the usual BR spellings of one mobile', async (t) => {
  for (const raw of [
    '(11) 98765-4321',
    '11987654321',
    '11 98765 4321',
    '011 98765 4321',
    '011987654321',
    '+55 11 98765-4321',
    '+55 (11) 9 8765-4321',
    '5511987654321',
    '55 11 98765 4321',
    '021 11 98765 4321', // trunk 0 + carrier 21
    '  (11)98765.4321  ',
    11987654321,
    5511987654321,
    11987654321n,
  ]) {
    t.equal(toE164(raw, BR), '+5511987654321', String(raw))
  }
})

t.test('toE164 keeps landlines as they are', async (t) => {
  for (const raw of ['(11) 3333-4444', '1133334444', '01133334444', '0xx11 3333-4444', '0 21 11 3333 4444']) {
    t.equal(toE164(raw, BR), '+551133334444', raw)
  }
  t.equal(toE164('(51) 2345-6789', BR), '+555123456789')
  // 55 is also a DDD (RS): ten digits starting with 55 are national, not a country code.
  t.equal(toE164('55 3333 4444', BR), '+555533334444')
})

t.test('toE164 adds the ninth digit to old 8-digit BR mobiles', async (t) => {
  t.equal(toE164('(11) 8765-4321', BR), '+5511987654321')
  t.equal(toE164('1187654321', BR), '+5511987654321')
  t.equal(toE164('(21) 7654-3210', BR), '+5521976543210')
  t.equal(toE164('(31) 6123-4567', BR), '+5531961234567')
  t.equal(toE164('+55 11 8765-4321', BR), '+5511987654321', 'also when written internationally')
})

t.test('addNinthDigit: false reads old 8-digit BR mobiles as stored', async (t) => {
  const asStored = { ...BR_SP, addNinthDigit: false }
  t.equal(toE164('9876-5432', asStored), '+551198765432', 'without area code: the default one, no ninth digit')
  t.equal(toE164('(11) 8765-4321', asStored), '+551187654321')
  t.equal(toE164('+55 11 8765-4321', asStored), '+551187654321', 'also when written internationally')
  t.equal(toE164('0055 11 8765-4321', asStored), '+551187654321', 'and after the international prefix')
  t.equal(toE164('98765-4321', asStored), '+5511987654321', 'a 9-digit mobile unchanged')
  t.equal(toE164('9876-5432', BR_SP), '+5511998765432', 'the default adds it')
})

t.test('toE164 uses defaultAreaCode for numbers stored without one', async (t) => {
  t.equal(toE164('98765-4321', BR_SP), '+5511987654321')
  t.equal(toE164('8765-4321', BR_SP), '+5511987654321', 'old 8-digit mobile')
  t.equal(toE164('3333-4444', BR_SP), '+551133334444', 'landline')
  t.equal(toE164('98765-4321', { defaultCountry: 'BR', defaultAreaCode: '(021)' }), '+5521987654321')
  t.equal(toE164('98765-4321', BR), undefined, 'no area code and no default')
  t.equal(toE164('3333-4444', BR), undefined)
  t.equal(toE164('876-5432', BR_SP), undefined, 'seven digits')
  t.equal(toE164('(11) 98765-4321', { defaultCountry: 'BR', defaultAreaCode: '21' }), '+5511987654321', 'own area code wins')
})

t.test('toE164 drops extensions', async (t) => {
  for (const raw of [
    '(11) 3333-4444 ramal 22',
    '(11) 3333-4444 RAMAL: 22',
    '(11) 3333-4444 r. 22',
    '(11) 3333-4444 r 22',
    '11 3333-4444 ext 5',
    '11 3333-4444 ext. 5',
    '1133334444x12',
    '(11) 3333-4444 x 12',
    '(11) 3333-4444 #12',
  ]) {
    t.equal(toE164(raw, BR), '+551133334444', raw)
  }
  t.equal(toE164('+1 202-555-0123 ext 7', BR), '+12025550123')
})

t.test('toE164 rejects blanks and garbage', async (t) => {
  for (const raw of [
    '',
    '   ',
    '0',
    '-',
    '(  )    -',
    '0000000000',
    'não tem',
    'ver cadastro',
    '12345',
    '(10) 98765-4321', // no DDD 10
    '(11) 1234-5678', // subscriber numbers don't start with 1
    '(11) 88765-4321', // 9-digit subscriber must start with 9
    '11 98765 4321 0', // 12 digits, not a known prefix
    '(11) 3333-4444 / 3333-5555',
    0,
    0n,
    -11987654321,
    1.5,
    null,
    undefined,
    {},
    new Date(),
  ]) {
    t.equal(toE164(raw, BR), undefined, typeof raw === 'string' ? JSON.stringify(raw) : String(raw))
  }
})

t.test('toE164 passes non-BR numbers through libphonenumber', async (t) => {
  t.equal(toE164('+1 202-555-0123', BR), '+12025550123')
  t.equal(toE164('+44 20 7946 0958', BR), '+442079460958')
  t.equal(toE164('0021 1 202 555 0123', BR), '+12025550123', 'BR IDD with carrier')
  t.equal(toE164('(202) 555-0123', { defaultCountry: 'US' }), '+12025550123')
  t.equal(toE164('020 7946 0958', { defaultCountry: 'gb' }), '+442079460958')
  t.equal(toE164('7946 0958', { defaultCountry: 'GB' }), undefined, 'not valid in GB')
  t.equal(toE164('+999 1234 5678', BR), undefined, 'no such country code')
  t.equal(toE164('+55 11 98765-4321', { defaultCountry: 'PT' }), '+5511987654321', 'BR number from a non-BR clinic')
})

t.test('phoneKeys: ninth-digit twins for BR mobiles only', async (t) => {
  t.same(phoneKeys('+5511987654321'), ['+5511987654321', '+551187654321'])
  t.same(phoneKeys('+551187654321'), ['+5511987654321', '+551187654321'])
  t.same(phoneKeys('+551133334444'), ['+551133334444'])
  // Dropping the 9 here would produce the landline (11) 2333-4444: a different number.
  t.same(phoneKeys('+5511923334444'), ['+5511923334444'])
  t.same(phoneKeys('+12025550123'), ['+12025550123'])
})

t.test('samePhone treats the ninth digit as optional, both ways', async (t) => {
  t.ok(samePhone('+5511987654321', '+551187654321'))
  t.ok(samePhone('+551187654321', '+5511987654321'))
  t.ok(samePhone('+5511987654321', '+5511987654321'))
  t.notOk(samePhone('+5511987654321', '+5521987654321'), 'other area code')
  t.notOk(samePhone('+5511923334444', '+551123334444'), 'mobile vs landline')
  t.notOk(samePhone('+551133334444', '+551133334445'))
  t.ok(samePhone('+12025550123', '+12025550123'))
})

t.test('phoneSearchFragment is contained in every stored spelling', async (t) => {
  const fragment = phoneSearchFragment('+5511987654321')
  t.equal(fragment, '87654321')
  for (const stored of ['11987654321', '1187654321', '5511987654321', '87654321', '987654321']) {
    t.ok(stored.includes(fragment), stored)
  }
  t.equal(phoneSearchFragment('+551133334444'), '33334444')
  t.equal(phoneSearchFragment('+442079460958'), '79460958')
})

t.test('parsePhoneInput reads API input', async (t) => {
  for (const term of ['+5511987654321', '5511987654321', '11987654321', '(11) 98765-4321', '(11) 8765-4321']) {
    t.equal(parsePhoneInput(term, BR), '+5511987654321', term)
  }
  t.equal(parsePhoneInput('98765-4321', BR), undefined)
  t.equal(parsePhoneInput('98765-4321', BR_SP), '+5511987654321')
  t.equal(parsePhoneInput('(11) 3333-4444 ramal 22', BR), undefined, 'extensions are not API input')
  t.equal(parsePhoneInput('maria', BR), undefined)
  t.equal(parsePhoneInput('', BR), undefined)
})

t.test('toStoredPhone writes legacy column formats', async (t) => {
  t.equal(toStoredPhone('+5511987654321', 'e164', 'BR'), '+5511987654321')
  t.equal(toStoredPhone('+5511987654321', 'digits', 'BR'), '11987654321')
  t.equal(toStoredPhone('+5511987654321', 'national', 'BR'), '11987654321')
  t.equal(toStoredPhone('+5511987654321', 'masked', 'BR'), '(11) 98765-4321')
  t.equal(toStoredPhone('+551133334444', 'masked', 'BR'), '(11) 3333-4444')
  t.equal(toStoredPhone('+551133334444', 'digits', 'BR'), '1133334444')
  t.equal(toStoredPhone('+442079460958', 'masked', 'GB'), '020 7946 0958')
  t.equal(toStoredPhone('+442079460958', 'digits', 'GB'), '2079460958')
  t.equal(toStoredPhone('+14165550143', 'digits', 'US'), '4165550143', 'a Canadian number on a US installation shares its calling code: national digits read back the same')
  t.throws(() => toStoredPhone('garbage', 'digits', 'BR'), TypeError)
})

t.test('a number of another country is stored whole, whatever the format: national digits would lose its country', async (t) => {
  for (const format of ['digits', 'national', 'masked'] as const) {
    t.equal(toStoredPhone('+442079460958', format, 'BR'), '+442079460958', `a British number on a Brazilian installation, ${format}`)
    t.equal(toStoredPhone('+5511928087886', format, 'US'), '+5511928087886', `a Brazilian mobile on a US installation, ${format}`)
    t.equal(toE164(toStoredPhone('+5511928087886', format, 'US'), { defaultCountry: 'US' }), '+5511928087886', 'and reads back as the same number')
  }
})

t.test('stored forms read back to the same number', async (t) => {
  for (const e164 of ['+5511987654321', '+551133334444']) {
    for (const format of ['e164', 'digits', 'national', 'masked'] as const) {
      t.equal(toE164(toStoredPhone(e164, format, 'BR'), BR), e164, `${e164} ${format}`)
    }
  }
})
