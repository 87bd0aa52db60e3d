// Foreign numbers written with the ITU international prefix 00, as desks type them, read as
// E.164; Brazil's own forms (carrier codes after 0 or 00) keep their meaning.
import t from 'tap'
import { parsePhoneInput, toE164 } from '../../../src/normalise/phone.js'

const BR = { defaultCountry: 'BR', defaultAreaCode: '11' }

t.test('00 + country code reads as +country code', async (t) => {
  t.equal(toE164('00591 74114552', BR), '+59174114552', 'Bolivia')
  t.equal(toE164('00 591 7411-4552', BR), '+59174114552', 'with separators')
  t.equal(toE164('0044 20 7946 0958', BR), '+442079460958', 'United Kingdom')
  t.equal(toE164('0041 44 668 1800', BR), '+41446681800', 'a country code that is also a Brazilian carrier code')
  t.equal(toE164('0044 20 7946 0958', { defaultCountry: 'US' }), '+442079460958', 'outside Brazil too')
  t.equal(parsePhoneInput('00591 74114552', BR), '+59174114552', 'as API input')
})

t.test('Brazilian prefixes keep their meaning', async (t) => {
  t.equal(toE164('0021 1 202 555 0123', BR), '+12025550123', '00 + carrier 21 + country code 1')
  t.equal(toE164('0055 11 98765 4321', BR), '+5511987654321', 'Brazil itself after 00')
  t.equal(toE164('0 21 11 98765-4321', BR), '+5511987654321', 'trunk 0 + carrier 21 is a long-distance call, not abroad')
  t.equal(toE164('0 15 11 3333 4444', BR), '+551133334444', 'carrier 15, a landline')
})

t.test('three zeros are no prefix', async (t) => {
  t.equal(toE164('000591 74114552', BR), undefined)
})

t.test('a number written with its country code: the right length is enough, but NANP keeps its plan', async (t) => {
  t.equal(parsePhoneInput('+44 7700 900123', BR), '+447700900123', 'a UK number outside the library\'s ranges is read as sent')
  t.equal(parsePhoneInput('+1 202 555 0123', BR), '+12025550123', 'a North American number')
  t.equal(parsePhoneInput('+11987654321', BR), undefined, 'a Brazilian mobile missing its 55 is no North American number (area code 198)')
  t.equal(parsePhoneInput('+1 123 456 7890', BR), undefined, 'an area code starting with 1')
  t.equal(parsePhoneInput('+1 202 123 4567', BR), undefined, 'an exchange starting with 1')
  t.equal(toE164('+1 023 555 0123', { defaultCountry: 'US' }), undefined, 'nor read from a stored column')
})
