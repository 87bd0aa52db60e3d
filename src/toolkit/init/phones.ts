// The clinic's phone country, area code and spelling, read from the shapes of its stored
// numbers: a country code when they carry one; else the countries whose numbering plan reads
// them (NANP's ten digits, a Brazilian DDD with 8 or 9 digits), a mask's brackets around as many
// digits as that country's area codes have. When the numbers fit two countries alike, or none,
// the draft says so instead of guessing (Brazil, the mapping's default, stands until then).
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { toE164, toStoredPhone, type StoredPhoneFormat } from '../../normalise/phone.js'
import { asText, phoneValue } from './values.js'

/** Countries tried for numbers stored without a country code (US stands for NANP: the area code tells US from CA). */
const LOCAL_COUNTRIES = ['BR', 'US']
/** Digits of the area code a number spelt in groups starts with, per calling code (Brazil's may carry the trunk 0). */
const AREA_DIGITS: Record<string, RegExp> = { 1: /^\d{3}$/, 55: /^0?\d{2}$/ }
/** Digits of the area code at the start of a national number, where the country always has one. */
const AREA_LENGTH: Record<string, number> = { 1: 3, 55: 2 }
/** The spellings `write.phoneFormat` names, the usual first where two spell a number alike. */
const FORMATS: StoredPhoneFormat[] = ['masked', 'dashed', 'international', 'e164', 'digits']

export interface PhoneHome {
  /** The country (ISO 3166), when the shapes say it; undefined when unsure. */
  country?: string
  /** Where some numbers are stored without an area code: how many, and the most frequent area code of the others. */
  areaCode?: { short: number, top: string }
  /** How most numbers of that country are spelt, for `write.phoneFormat`. */
  format?: { name: StoredPhoneFormat, seen: string }
  /** What was seen (counts and shapes, never a number). */
  seen: string
}

export interface Reading { text: string, e164?: string, country?: string, code?: string }

/** How a stored phone reads: with its country code, or as a number of each country that reads it whole. */
export function readings (text: string, countries: string[]): Reading[] {
  if (/^(\+|00)/.test(text)) {
    const parsed = parsePhoneNumberFromString(text.replace(/^00/, '+'))
    return parsed?.country !== undefined && parsed.isValid() ? [{ text, e164: parsed.number, country: parsed.country, code: parsed.countryCallingCode }] : []
  }
  // Spelt in groups, the first (after NANP's trunk 1) is the area code: `416-555-0112` is no Brazilian 41 number.
  const groups = text.match(/\d+/g) ?? []
  const area = groups.length > 1 ? (groups[0] === '1' && groups.length > 2 ? groups[1] : groups[0]) : undefined
  return countries.flatMap((c) => {
    const e164 = toE164(text, { defaultCountry: c })
    const parsed = e164 === undefined ? undefined : parsePhoneNumberFromString(e164)
    if (parsed?.country === undefined || !parsed.isValid()) return []
    const code = parsed.countryCallingCode
    if (area !== undefined && AREA_DIGITS[code] !== undefined && !AREA_DIGITS[code].test(area)) return []
    return [{ text, e164: parsed.number, country: parsed.country, code }]
  })
}

/** A number's shape for a comment: digits as N, so no patient's number is written. */
export const phoneShape = (text: string): string => text.replace(/\d/g, 'N')

const count = <T>(items: T[]): Array<[T, number]> => {
  const m = new Map<T, number>()
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1)
  return [...m].sort((a, b) => b[1] - a[1])
}

/** Where the sampled phones come from, judged by their shapes; undefined when none looks like a phone. */
export function phoneHome (values: unknown[]): PhoneHome | undefined {
  const texts = values.map(asText).filter(phoneValue)
  if (texts.length === 0) return undefined
  // Numbers without a country code are tried as those the others carry, and as Brazil's and NANP's.
  const carried = texts.filter((t) => /^(\+|00)/.test(t)).flatMap((t) => readings(t, []).map((x) => x.country as string))
  const read = texts.map((t) => readings(t, [...new Set([...carried, ...LOCAL_COUNTRIES])]))
  const coded = read.filter((r, i) => r.length > 0 && /^(\+|00)/.test(texts[i])).length
  // Calling codes each number fits (a number read alike by two countries counts for both).
  const codes = count(read.flatMap((r) => [...new Set(r.map((x) => x.code as string))]))
  const unread = read.filter((r) => r.length === 0).length
  const said = `${texts.length} sampled phones, ${coded} with a country code` + (unread > 0 ? `, ${unread} read as no whole number` : '')
  const [top, second] = codes
  if (top === undefined) return { seen: `${said}: none reads as a number of ${LOCAL_COUNTRIES.join(' or ')} without its area code` }
  if (second !== undefined && second[1] === top[1]) {
    const alike = codes.filter(([, n]) => n === top[1]).map(([c]) => countriesOf(read, c).join('/'))
    return { seen: `${said}: they read as numbers of ${alike.join(' and ')} alike` }
  }
  if (top[1] < 0.8 * (texts.length - unread)) return { seen: `${said}: only ${top[1]} read as numbers of ${countriesOf(read, top[0]).join('/')}` }
  const ours = read.map((r) => r.find((x) => x.code === top[0])).filter((x): x is Reading => x !== undefined)
  const byCountry = count(ours.map((x) => x.country as string))
  const country = byCountry[0][0]
  const among = byCountry.length > 1 ? ` (${byCountry.map(([c, n]) => `${c} ${n}`).join(', ')} by area code)` : ''
  const seen = `${said}: ${top[1]} read as numbers of +${top[0]}${among}` + (second !== undefined ? `, ${second[1]} also as +${second[0]}` : '')
  return { country, areaCode: areaCode(texts, read, top[0], unread), format: formatOf(ours, country), seen }
}

const countriesOf = (read: Reading[][], code: string): string[] => [...new Set(read.flat().filter((x) => x.code === code).map((x) => x.country as string))].sort()

/** The most frequent area code of the whole numbers, when some are stored without one (Brazil's 8 or 9 digits, NANP's 7). */
function areaCode (texts: string[], read: Reading[][], code: string, unread: number): PhoneHome['areaCode'] {
  const length = AREA_LENGTH[code]
  if (length === undefined || unread === 0) return undefined
  const short = texts.filter((t, i) => read[i].length === 0 && t.replace(/\D/g, '').length < 10).length
  if (short === 0) return undefined
  const areas = read.flatMap((r) => r.filter((x) => x.code === code).map((x) => (x.e164 as string).slice(1 + code.length, 1 + code.length + length)))
  const top = count(areas)[0]?.[0]
  return top === undefined ? undefined : { short, top }
}

/**
 * The spelling most numbers are stored in, exactly (a write must store what the clinic's
 * program would): one of the named formats, or else a mask of the stored shape (`(###)###-####`
 * for Open Dental's `(503)555-0142`, which `masked`, `(503) 555-0142`, is not), where the stored
 * digits are the national number's.
 */
function formatOf (ours: Reading[], country: string): PhoneHome['format'] {
  const spelt = ours.map((x) => {
    const named = FORMATS.find((f) => toStoredPhone(x.e164 as string, f, country) === x.text)
    const national = parsePhoneNumberFromString(x.e164 as string)?.nationalNumber
    const mask = national !== undefined && x.text.replace(/\D/g, '') === national ? x.text.replace(/\d/g, '#') : undefined
    return { named, mask, shape: phoneShape(x.text) }
  })
  const named = count(spelt.flatMap((s) => s.named === undefined ? [] : [s.named]))[0]
  const mask = count(spelt.flatMap((s) => s.mask === undefined ? [] : [s.mask]))[0]
  if (mask !== undefined && (named === undefined || mask[1] > named[1])) {
    return { name: mask[0], seen: `${mask[1]} of ${ours.length} such numbers are spelt ${phoneShape(mask[0].replace(/#/g, '0'))}, as no named format writes them` }
  }
  if (named === undefined) return undefined
  const shape = count(spelt.filter((s) => s.named === named[0]).map((s) => s.shape))[0][0]
  return { name: named[0], seen: `${named[1]} of ${ours.length} such numbers are spelt so, e.g. ${shape}` }
}
