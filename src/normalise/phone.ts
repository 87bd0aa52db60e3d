import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode } from 'libphonenumber-js'
// The precise metadata, only where a number is read with the mapping's area code: the default
// one takes '123456' for a whole German number, so a Berlin local would never get its area code.
import { parsePhoneNumberFromString as parsePrecisely } from 'libphonenumber-js/max'

export interface PhoneOptions {
  /** ISO 3166 alpha-2, e.g. 'BR'. */
  defaultCountry: string;
  /** Used when a stored local number lacks its area code, e.g. '11' (BR), '905' (NANP), '020' (London). */
  defaultAreaCode?: string;
  /** false: an old 8-digit mobile stays 8 digits (`+551198765432`), not given today's ninth digit. Default true. */
  addNinthDigit?: boolean;
  /** The mapping's own write mask (`phoneFormat: '(###)###-####'`), whose spelling a phone search looks up first. */
  mask?: string;
}

export type StoredPhoneFormat = 'e164' | 'digits' | 'national' | 'masked' | 'dashed' | 'international' | PhoneMask
/** A mask of `#` (one digit of the national number each) and literal characters: `(###)###-####`. */
export type PhoneMask = string

/** How a new client's `allPhones` travels as one value to its columns' writer: the numbers (E.164, never spaced) joined by a space. */
export const PHONES_JOINED = ' '

/** Whether a `phoneFormat` is a mask of `#`s rather than one of the named formats. */
export function isPhoneMask (format: string | undefined): format is PhoneMask {
  return format !== undefined && format.includes('#')
}
/** How a number of another country than the installation's is stored: it always keeps its country code. */
export type ForeignPhoneFormat = 'e164' | 'international'

// Brazilian DDDs (area codes) in use. libphonenumber's default metadata is too
// lax to reject e.g. a 9-digit local number read as '+55 98 7654321', so BR
// numbers are checked against this list and the shape rules below instead.
const BR_AREA_CODES = new Set(
  ('11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 ' +
    '41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 ' +
    '71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99').split(' ')
)

// Written after the number in legacy columns: 'ramal 22', 'r. 22', 'ext 5',
// 'x12', '#12'. Anchored to the end so the 'xx' of '0xx11' is left alone.
const EXTENSION = /\s*(?:ramal|ram\.?|r\.|r|ext\.?|extension|x|#)\s*:?\s*\d{1,6}\s*$/i

// Separators people type between digits; anything else means it isn't a phone.
const PHONE_PUNCTUATION = /^[\d\s+().\-/]*$/

/** Lenient reader of legacy phone columns; returns E.164 or undefined. */
export function toE164 (raw: unknown, opts: PhoneOptions): string | undefined {
  const text = rawToText(raw)
  if (text === undefined) return undefined
  const cleaned = text.replace(EXTENSION, '').replace(/^\s*0\s*xx\s*/i, '0')
  if (!PHONE_PUNCTUATION.test(cleaned)) return undefined
  return parseCleaned(cleaned, opts)
}

/** Reader for API input (search terms, request bodies): no extensions, no garbage. */
export function parsePhoneInput (term: string, opts: PhoneOptions): string | undefined {
  if (typeof term !== 'string' || !PHONE_PUNCTUATION.test(term)) return undefined
  return parseCleaned(term, opts)
}

/**
 * What is wrong with API input parsePhoneInput does not read, in words a caller can act on
 * (the number is never repeated: it is a patient's).
 */
export function phoneInputProblem (term: string, opts: PhoneOptions): string {
  if (typeof term !== 'string' || term.trim() === '') return 'must be a telephone number (e.g. +351912345678)'
  if (!PHONE_PUNCTUATION.test(term)) return 'must be a telephone number: digits, spaces, +, (, ), - and . only, no extension'
  const international = /^\s*\+/.test(term)
  const why = validatePhoneNumberLength(term, opts.defaultCountry.toUpperCase() as CountryCode)
  const code = parsePhoneNumberFromString(term)?.countryCallingCode
  const country = international && code !== undefined ? `+${code}` : `${opts.defaultCountry.toUpperCase()} (the clinic's country)`
  // Without a country code the number was read as the clinic's country's: say how to give another.
  const other = international ? '' : ': a number of another country needs its country code (e.g. +447911123456)'
  if (why === 'TOO_SHORT') return `has too few digits for a number of ${country}${other}`
  if (why === 'TOO_LONG') return `has too many digits for a number of ${country}${other}`
  if (why === 'INVALID_COUNTRY') return 'starts with a country code no country has'
  if (why === 'INVALID_LENGTH') return `has a number of digits no number of ${country} has${other}`
  return international
    ? `is not a telephone number of +${code ?? '?'}`
    : `is not a number of ${opts.defaultCountry.toUpperCase()}, the clinic's country: a number of another country needs its country code (e.g. +447911123456)`
}

/** Equivalent E.164 forms of one number; two phones are the same iff their keys intersect. */
export function phoneKeys (e164: string): string[] {
  const national = brNational(e164)
  if (national === undefined) return [e164]
  const area = national.slice(0, 2)
  const subscriber = national.slice(-8)
  // Only numbers that could have been a pre-2016 8-digit mobile get the twin
  // key; '+55 11 9 2333-4444' without its 9 would be a different landline.
  if (!isOldMobilePrefix(subscriber)) return [e164]
  return [`+55${area}9${subscriber}`, `+55${area}${subscriber}`]
}

export function samePhone (a: string, b: string): boolean {
  const keys = new Set(phoneKeys(a))
  return phoneKeys(b).some((k) => keys.has(k))
}

/**
 * Last 8 digits of the national number. Every stored spelling of the number
 * (masked, with or without country code, area code or ninth digit) contains
 * them, so a digits-only LIKE '%…%' prefilter can't miss a match.
 */
export function phoneSearchFragment (e164: string): string {
  return e164.replace(/\D/g, '').slice(-8)
}

/** How to write a phone back into a legacy column. */
export function toStoredPhone (e164: string, format: StoredPhoneFormat, home: string, foreign: ForeignPhoneFormat = 'e164'): string {
  if (format === 'e164') return e164
  const code = parsePhoneNumberFromString(e164)?.countryCallingCode
  if (code === undefined) throw new TypeError(`not an E.164 phone: ${e164}`)
  // National digits drop the country code: a number of another country is kept whole, or it
  // would read back as a number of the installation's own country (or as none).
  if (code !== callingCodeOf(home)) return foreign === 'international' ? formatsOf(e164)?.international ?? e164 : e164
  if (format === 'international') return formatsOf(e164)?.international ?? e164
  if (isPhoneMask(format)) {
    const masked = applyMask(e164, format)
    if (masked === undefined) throw new TypeError(maskMismatch(format))
    return masked
  }
  if (format === 'dashed') return formatsOf(e164)?.nationalGroups.join('-') ?? e164
  const national = brNational(e164)
  if (national !== undefined) {
    return format === 'masked' ? maskBr(national) : national
  }
  const parsed = parsePhoneNumberFromString(e164)
  if (parsed === undefined) throw new TypeError(`not an E.164 phone: ${e164}`)
  return format === 'masked' ? parsed.formatNational() : parsed.nationalNumber
}

/**
 * The national number of a number of the installation's own country spelt by the mask (a `#`
 * per digit, in order), or undefined when its digits are not as many as the mask's `#`s.
 */
export function applyMask (e164: string, mask: PhoneMask): string | undefined {
  const national = brNational(e164) ?? parsePhoneNumberFromString(e164)?.nationalNumber
  const slots = mask.split('#').length - 1
  if (national === undefined || national.length !== slots) return undefined
  let i = 0
  return mask.replace(/#/g, () => national[i++]!)
}

/**
 * What is wrong with writing this number with the mask, in words a caller can act on (the
 * number is never repeated); undefined when it is written so or kept whole (another country).
 */
export function phoneMaskProblem (e164: string, mask: PhoneMask, home: string): string | undefined {
  if (parsePhoneNumberFromString(e164)?.countryCallingCode !== callingCodeOf(home)) return undefined
  return applyMask(e164, mask) === undefined ? maskMismatch(mask) : undefined
}

function maskMismatch (mask: PhoneMask): string {
  return `has another number of digits than this installation stores its numbers with (${mask.split('#').length - 1}, as \`${mask}\`)`
}

function rawToText (raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw
  if (typeof raw === 'bigint') return raw > 0n ? raw.toString() : undefined
  if (typeof raw === 'number') {
    return Number.isSafeInteger(raw) && raw > 0 ? String(raw) : undefined
  }
  return undefined
}

function parseCleaned (cleaned: string, opts: PhoneOptions): string | undefined {
  const digits = cleaned.replace(/\D/g, '')
  if (digits.length === 0 || /^0+$/.test(digits)) return undefined
  const international = /^\s*\+/.test(cleaned) || digits.startsWith('00')
  if (opts.defaultCountry.toUpperCase() === 'BR' && !international) {
    return brFromDomesticDigits(digits, opts.defaultAreaCode, opts.addNinthDigit !== false)
  }
  if (opts.defaultAreaCode !== undefined && !international) {
    const local = withAreaCode(digits, opts.defaultCountry, opts.defaultAreaCode)
    if (local !== undefined) return local
  }
  const ninth = opts.addNinthDigit !== false
  return viaLibphonenumber(cleaned, opts.defaultCountry, ninth) ?? viaItuPrefix(digits, opts.defaultCountry, ninth)
}

// '00591 74114552', '0044 20 …': the ITU's international prefix, as people write foreign
// numbers down wherever they are. libphonenumber only strips the default country's own
// prefix, and Brazil's is 00 + a carrier code ('0021 1 202 …', tried first above), so a
// bare 00 + country code is read here. A Brazilian long-distance '0 XX 11 …' (trunk 0 and a
// carrier code) never reaches this: its second digit is not 0.
function viaItuPrefix (digits: string, country: string, ninth: boolean): string | undefined {
  if (!digits.startsWith('00') || digits.startsWith('000')) return undefined
  return viaLibphonenumber(`+${digits.slice(2)}`, country, ninth)
}

function viaLibphonenumber (text: string, country: string, ninth: boolean): string | undefined {
  const parsed = parsePhoneNumberFromString(text, country.toUpperCase() as CountryCode)
  if (parsed === undefined) return undefined
  // Brazil gets its own rules even when dialled from abroad (ninth digit, DDDs).
  if (parsed.countryCallingCode === '55') return brFromNational(parsed.nationalNumber, ninth)
  if (parsed.isValid()) return parsed.number
  // Written with its country code, a number of the right length for that country is read even
  // outside the library's ranges (they lag the numbering plans, and a caller's own number must
  // be registered and found as sent). Without one, the ranges tell a whole number from a local
  // one missing its area code, or a carrier prefix from a country code, so they still decide.
  // NANP's plan is fixed (area code and exchange start with 2–9) even where its ranges lag:
  // '+1 198 …' is a Brazilian mobile missing its 55, never a North American number.
  if (parsed.countryCallingCode === '1' && !NANP.test(parsed.nationalNumber)) return undefined
  return /^\s*\+/.test(text) && parsed.isPossible() ? parsed.number : undefined
}

const NANP = /^[2-9]\d{2}[2-9]\d{6}$/

// A local number stored without its area code (OSCAR's '555-0143' in area 905, a London
// '7946 0018'): read with the mapping's area code in front when the digits are no number of
// the country on their own and are one with it; a whole number is never given a second one.
function withAreaCode (digits: string, country: string, areaCode: string): string | undefined {
  const code = country.toUpperCase() as CountryCode
  if (parsePrecisely(digits, code)?.isValid() === true) return undefined
  const parsed = parsePrecisely(areaCode.replace(/\D/g, '') + digits, code)
  return parsed?.isValid() === true ? parsed.number : undefined
}

/** Digits as dialled inside Brazil, possibly with trunk, carrier or country prefixes. */
function brFromDomesticDigits (digits: string, defaultAreaCode: string | undefined, ninth: boolean): string | undefined {
  if (digits.length <= 9) return brFromLocal(digits, defaultAreaCode, ninth)
  return brFromNational(stripBrPrefixes(digits), ninth)
}

function stripBrPrefixes (digits: string): string {
  if (digits.startsWith('0')) {
    const afterTrunk = digits.slice(1) // '011 98765 4321'
    // '0 21 11 98765-4321': trunk 0, then a two-digit long-distance carrier code.
    return afterTrunk.length >= 12 ? afterTrunk.slice(2) : afterTrunk
  }
  // '55 11 98765-4321' stored without the '+'; 12–13 digits can't be national.
  if (digits.startsWith('55') && digits.length >= 12) return digits.slice(2)
  return digits
}

/** A number without its area code: 8 digits (old) or 9 digits starting with 9. */
function brFromLocal (digits: string, defaultAreaCode: string | undefined, ninth: boolean): string | undefined {
  if (defaultAreaCode === undefined) return undefined
  const area = defaultAreaCode.replace(/\D/g, '').replace(/^0/, '')
  if (digits.length !== 8 && digits.length !== 9) return undefined
  return brFromNational(area + digits, ninth)
}

/** Area code + subscriber number; adds the ninth digit to old 8-digit mobiles unless told not to (`ninth`). */
function brFromNational (national: string, ninth: boolean): string | undefined {
  if (!isBrNationalShape(national)) return undefined
  const area = national.slice(0, 2)
  const subscriber = national.slice(2)
  // Every BR mobile has had 9 digits since 2016; legacy rows still hold the 8-digit form.
  if (ninth && subscriber.length === 8 && isOldMobilePrefix(subscriber)) return `+55${area}9${subscriber}`
  return `+55${area}${subscriber}`
}

function isBrNationalShape (national: string): boolean {
  if (!/^\d{10,11}$/.test(national) || !BR_AREA_CODES.has(national.slice(0, 2))) return false
  const subscriber = national.slice(2)
  if (subscriber.length === 9) return subscriber.startsWith('9')
  return /^[2-9]/.test(subscriber)
}

function isOldMobilePrefix (eightDigits: string): boolean {
  return /^[6-9]/.test(eightDigits)
}

/** National significant number of a Brazilian E.164 string, else undefined. */
function brNational (e164: string): string | undefined {
  const m = /^\+55(\d{10,11})$/.exec(e164)
  return m !== null && isBrNationalShape(m[1]!) ? m[1] : undefined
}

function maskBr (national: string): string {
  const area = national.slice(0, 2)
  const subscriber = national.slice(2)
  const split = subscriber.length - 4
  return `(${area}) ${subscriber.slice(0, split)}-${subscriber.slice(split)}`
}

/**
 * The stored spellings a phone search looks up, so an index on the raw column can seek
 * instead of every phone of every client being read (issue 13). `exact` are whole values
 * (`col IN (…)`), `prefixes` values that may have anything after them — an extension
 * (`(11) 3333-4444 ramal 22`), CHAR padding — (`col LIKE 'p%'` or a range). A stored value
 * the probes miss is not found by a search: `ponte check` reads every stored phone and
 * counts those (`probesFind`), and a mapping whose data does not fit chooses the scan.
 * Every list is at most PHONE_EXACT_SLOTS / PHONE_PREFIX_SLOTS long: statements are compiled
 * once, with that many placeholders.
 */
export interface Probes {
  exact: string[]
  prefixes: string[]
}

export const PHONE_EXACT_SLOTS = 28
export const PHONE_PREFIX_SLOTS = 8

export function phoneProbes (e164: string, opts: PhoneOptions): Probes {
  const national = brNational(e164)
  const f = national === undefined ? formatsOf(e164) : undefined
  const probes = national !== undefined
    ? brProbes(national, opts)
    : f !== undefined && f.cc === callingCodeOf(opts.defaultCountry) ? homeProbes(e164, f, opts) : foreignProbes(e164, f)
  // The mapping's own mask first among the exact spellings: it is how every number Ponte writes
  // is spelt, so it is never cut; the prefixes keep their slots (a masked number with an
  // extension is found by the digits scan after the probes).
  const own = opts.mask !== undefined && (f?.cc ?? parsePhoneNumberFromString(e164)?.countryCallingCode) === callingCodeOf(opts.defaultCountry)
    ? applyMask(e164, opts.mask)
    : undefined
  const first = own === undefined ? [] : [own]
  return {
    exact: [...new Set([...first, ...probes.exact])].slice(0, PHONE_EXACT_SLOTS),
    prefixes: probes.prefixes.slice(0, PHONE_PREFIX_SLOTS),
  }
}

/**
 * Whether the probes find a stored value, as the database compares: SQL Server's and
 * MySQL's `=` ignore trailing spaces (`padded`), SQLite's and PostgreSQL's do not.
 */
export function probesFind (stored: unknown, probes: Probes, padded: boolean): boolean {
  const text = typeof stored === 'string' ? stored : typeof stored === 'number' || typeof stored === 'bigint' ? String(stored) : undefined
  if (text === undefined) return false
  const whole = padded ? text.replace(/ +$/, '') : text
  return probes.exact.includes(whole) || probes.prefixes.some((p) => text.startsWith(p))
}

// Every spelling found in the samples and in clinic systems we know of: digits with or
// without country code (+55, 55), trunk 0 or area code; masks with the area code in
// parentheses, spaced, hyphenated; the ninth digit alone ('(11) 9 8765-4321'). The old
// 8-digit form of a mobile is probed too (phoneKeys' twin), and the number without its area
// code only for the mapping's default area code (that is how toE164 reads such a value).
function brProbes (national: string, opts: PhoneOptions): Probes {
  const area = national.slice(0, 2)
  const local = opts.defaultCountry.toUpperCase() === 'BR' && opts.defaultAreaCode?.replace(/\D/g, '').replace(/^0/, '') === area
  const subscribers = phoneKeys(`+55${national}`).map((k) => k.slice(5))
  const exact: string[] = []
  const prefixes: string[] = []
  for (const s of subscribers) {
    const h = s.slice(0, -4)
    const t = s.slice(-4)
    exact.push(`${area}${s}`, `0${area}${s}`, `55${area}${s}`, `+55${area}${s}`,
      `(${area})${h}-${t}`, `(0${area}) ${h}-${t}`, `0${area} ${h}-${t}`, `${area} ${h}-${t}`,
      `+55 (${area}) ${h}-${t}`, `+55 ${area} ${h} ${t}`, `+55 ${area} ${s}`)
    if (s.length === 9) exact.push(`(${area}) 9 ${h.slice(1)}-${t}`)
    if (local) exact.push(s, `${h} ${t}`)
    prefixes.push(`(${area}) ${h}-${t}`, `${area} ${h} ${t}`, `+55 ${area} ${h}-${t}`)
    if (local) prefixes.push(`${h}-${t}`)
  }
  return { exact, prefixes }
}

// A number of another country: E.164 with and without '+' or as 00…, the international form
// libphonenumber writes, and the '+1 (305) 413-5791' / '+1 305-413-5791' mixes.
function foreignProbes (e164: string, f: Formats | undefined): Probes {
  const digits = e164.replace(/\D/g, '')
  const exact = [e164, digits, `00${digits}`]
  const prefixes: string[] = []
  if (f !== undefined) {
    const cc = `+${f.cc}`
    exact.push(`${cc} ${f.internationalGroups.join('-')}`, `${cc}-${f.internationalGroups.join('-')}`, `${cc}.${f.internationalGroups.join('.')}`, `${cc}${f.nationalNumber}`)
    prefixes.push(f.international, `${cc} ${f.national}`)
  }
  return { exact, prefixes }
}

// A number of the installation's own country (Brazil has brProbes), as its clinics type it:
// libphonenumber's national format for that country ('(905) 555-0102', '020 7946 0018') and
// its groups joined by hyphens, dots, spaces or nothing; the calling code in front without
// '+' (NANP's long-distance '1-905-555-0102'); without the area code for the mapping's default
// one ('555-0102'); then the international spellings. Prefixes: the same spellings followed
// by an extension ('905-555-0102 x12', '(905) 555-0102 ext. 12'), in that order of need.
function homeProbes (e164: string, f: Formats, opts: PhoneOptions): Probes {
  const { cc, national, nationalGroups: groups, internationalGroups: international } = f
  const spelt = SEPARATORS.map((sep) => groups.join(sep))
  const dialled = [...SEPARATORS.map((sep) => `${cc}${sep}${international.join(sep)}`), `${cc} ${national}`]
  const area = opts.defaultAreaCode?.replace(/\D/g, '')
  const local = area !== undefined && groups.length > 1 && (area === groups[0] || area === international[0])
    ? SEPARATORS.map((sep) => groups.slice(1).join(sep))
    : []
  const foreign = foreignProbes(e164, f)
  return {
    exact: [...spelt, national, f.nationalNumber,
      `(${groups[0]})${groups.slice(1).join('-')}`, `(${groups[0]}) ${groups.slice(1).join(' ')}`, ...dialled, `+${cc} ${national}`, ...local, ...foreign.exact],
    prefixes: [national, ...spelt, dialled[0], ...local.slice(0, 1), ...foreign.prefixes]
  }
}

// Hyphen, dot, space, nothing: the order homeProbes keeps when slots run out.
const SEPARATORS = ['-', '.', ' ', '']

/**
 * libphonenumber's national and international formats of a number, and their digit groups:
 * '(905) 555-0102' is 905, 555, 0102 ('020 7946 0018' keeps its trunk 0); the international
 * groups never have it ('+44 20 7946 0018'). Formatted once per number: they are the costly part.
 */
interface Formats {
  cc: string
  nationalNumber: string
  national: string
  international: string
  nationalGroups: string[]
  internationalGroups: string[]
}

function formatsOf (e164: string): Formats | undefined {
  const parsed = parsePhoneNumberFromString(e164)
  if (parsed === undefined) return undefined
  const national = parsed.formatNational()
  const international = parsed.formatInternational()
  const groups = (text: string): string[] => text.split(/\D+/).filter((g) => g !== '')
  return {
    cc: parsed.countryCallingCode,
    nationalNumber: parsed.nationalNumber,
    national,
    international,
    nationalGroups: groups(national),
    internationalGroups: groups(international).slice(1)
  }
}

/** Whether libphonenumber has the country's numbering plan (what a mapping's `phone.defaultCountry` must name). */
export function isPhoneCountry (country: string): boolean {
  return isSupportedCountry(country)
}

function callingCodeOf (country: string): string | undefined {
  try {
    return getCountryCallingCode(country.toUpperCase() as CountryCode)
  } catch {
    return undefined
  }
}
