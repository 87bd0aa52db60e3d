import { getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

export interface PhoneOptions {
  /** ISO 3166 alpha-2, e.g. 'BR'. */
  defaultCountry: string;
  /** Used when a stored local number lacks its area code, e.g. '11'. */
  defaultAreaCode?: string;
}

export type StoredPhoneFormat = 'e164' | 'digits' | 'national' | 'masked';

// Brazilian DDDs (area codes) in use. libphonenumber's default metadata is too
// lax to reject e.g. a 9-digit local number read as '+55 98 7654321', so BR
// numbers are checked against this list and the shape rules below instead.
const BR_AREA_CODES = new Set(
  ('11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 ' +
    '41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 ' +
    '71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99').split(' '),
);

// Written after the number in legacy columns: 'ramal 22', 'r. 22', 'ext 5',
// 'x12', '#12'. Anchored to the end so the 'xx' of '0xx11' is left alone.
const EXTENSION = /\s*(?:ramal|ram\.?|r\.|r|ext\.?|extension|x|#)\s*:?\s*\d{1,6}\s*$/i;

// Separators people type between digits; anything else means it isn't a phone.
const PHONE_PUNCTUATION = /^[\d\s+().\-/]*$/;

/** Lenient reader of legacy phone columns; returns E.164 or undefined. */
export function toE164(raw: unknown, opts: PhoneOptions): string | undefined {
  const text = rawToText(raw);
  if (text === undefined) return undefined;
  const cleaned = text.replace(EXTENSION, '').replace(/^\s*0\s*xx\s*/i, '0');
  if (!PHONE_PUNCTUATION.test(cleaned)) return undefined;
  return parseCleaned(cleaned, opts);
}

/** Reader for API input (search terms, request bodies): no extensions, no garbage. */
export function parsePhoneInput(term: string, opts: PhoneOptions): string | undefined {
  if (typeof term !== 'string' || !PHONE_PUNCTUATION.test(term)) return undefined;
  return parseCleaned(term, opts);
}

/** Equivalent E.164 forms of one number; two phones are the same iff their keys intersect. */
export function phoneKeys(e164: string): string[] {
  const national = brNational(e164);
  if (national === undefined) return [e164];
  const area = national.slice(0, 2);
  const subscriber = national.slice(-8);
  // Only numbers that could have been a pre-2016 8-digit mobile get the twin
  // key; '+55 11 9 2333-4444' without its 9 would be a different landline.
  if (!isOldMobilePrefix(subscriber)) return [e164];
  return [`+55${area}9${subscriber}`, `+55${area}${subscriber}`];
}

export function samePhone(a: string, b: string): boolean {
  const keys = new Set(phoneKeys(a));
  return phoneKeys(b).some((k) => keys.has(k));
}

/**
 * Last 8 digits of the national number. Every stored spelling of the number
 * (masked, with or without country code, area code or ninth digit) contains
 * them, so a digits-only LIKE '%…%' prefilter can't miss a match.
 */
export function phoneSearchFragment(e164: string): string {
  return e164.replace(/\D/g, '').slice(-8);
}

/** How to write a phone back into a legacy column. */
export function toStoredPhone(e164: string, format: StoredPhoneFormat, home: string): string {
  if (format === 'e164') return e164;
  const code = parsePhoneNumberFromString(e164)?.countryCallingCode;
  if (code === undefined) throw new TypeError(`not an E.164 phone: ${e164}`);
  // National digits drop the country code: a number of another country is kept whole, or it
  // would read back as a number of the installation's own country (or as none).
  if (code !== callingCodeOf(home)) return e164;
  const national = brNational(e164);
  if (national !== undefined) {
    return format === 'masked' ? maskBr(national) : national;
  }
  const parsed = parsePhoneNumberFromString(e164);
  if (parsed === undefined) throw new TypeError(`not an E.164 phone: ${e164}`);
  return format === 'masked' ? parsed.formatNational() : parsed.nationalNumber;
}

function rawToText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'bigint') return raw > 0n ? raw.toString() : undefined;
  if (typeof raw === 'number') {
    return Number.isSafeInteger(raw) && raw > 0 ? String(raw) : undefined;
  }
  return undefined;
}

function parseCleaned(cleaned: string, opts: PhoneOptions): string | undefined {
  const digits = cleaned.replace(/\D/g, '');
  if (digits.length === 0 || /^0+$/.test(digits)) return undefined;
  const international = /^\s*\+/.test(cleaned) || digits.startsWith('00');
  if (opts.defaultCountry.toUpperCase() === 'BR' && !international) {
    return brFromDomesticDigits(digits, opts.defaultAreaCode);
  }
  return viaLibphonenumber(cleaned, opts.defaultCountry) ?? viaItuPrefix(digits, opts.defaultCountry);
}

// '00591 74114552', '0044 20 …': the ITU's international prefix, as people write foreign
// numbers down wherever they are. libphonenumber only strips the default country's own
// prefix, and Brazil's is 00 + a carrier code ('0021 1 202 …', tried first above), so a
// bare 00 + country code is read here. A Brazilian long-distance '0 XX 11 …' (trunk 0 and a
// carrier code) never reaches this: its second digit is not 0.
function viaItuPrefix(digits: string, country: string): string | undefined {
  if (!digits.startsWith('00') || digits.startsWith('000')) return undefined;
  return viaLibphonenumber(`+${digits.slice(2)}`, country);
}

function viaLibphonenumber(text: string, country: string): string | undefined {
  const parsed = parsePhoneNumberFromString(text, country.toUpperCase() as CountryCode);
  if (parsed === undefined) return undefined;
  // Brazil gets its own rules even when dialled from abroad (ninth digit, DDDs).
  if (parsed.countryCallingCode === '55') return brFromNational(parsed.nationalNumber);
  return parsed.isValid() ? parsed.number : undefined;
}

/** Digits as dialled inside Brazil, possibly with trunk, carrier or country prefixes. */
function brFromDomesticDigits(digits: string, defaultAreaCode?: string): string | undefined {
  if (digits.length <= 9) return brFromLocal(digits, defaultAreaCode);
  return brFromNational(stripBrPrefixes(digits));
}

function stripBrPrefixes(digits: string): string {
  if (digits.startsWith('0')) {
    const afterTrunk = digits.slice(1); // '011 98765 4321'
    // '0 21 11 98765-4321': trunk 0, then a two-digit long-distance carrier code.
    return afterTrunk.length >= 12 ? afterTrunk.slice(2) : afterTrunk;
  }
  // '55 11 98765-4321' stored without the '+'; 12–13 digits can't be national.
  if (digits.startsWith('55') && digits.length >= 12) return digits.slice(2);
  return digits;
}

/** A number without its area code: 8 digits (old) or 9 digits starting with 9. */
function brFromLocal(digits: string, defaultAreaCode?: string): string | undefined {
  if (defaultAreaCode === undefined) return undefined;
  const area = defaultAreaCode.replace(/\D/g, '').replace(/^0/, '');
  if (digits.length !== 8 && digits.length !== 9) return undefined;
  return brFromNational(area + digits);
}

/** Area code + subscriber number; adds the ninth digit to old 8-digit mobiles. */
function brFromNational(national: string): string | undefined {
  if (!isBrNationalShape(national)) return undefined;
  const area = national.slice(0, 2);
  const subscriber = national.slice(2);
  // Every BR mobile has had 9 digits since 2016; legacy rows still hold the 8-digit form.
  if (subscriber.length === 8 && isOldMobilePrefix(subscriber)) return `+55${area}9${subscriber}`;
  return `+55${area}${subscriber}`;
}

function isBrNationalShape(national: string): boolean {
  if (!/^\d{10,11}$/.test(national) || !BR_AREA_CODES.has(national.slice(0, 2))) return false;
  const subscriber = national.slice(2);
  if (subscriber.length === 9) return subscriber.startsWith('9');
  return /^[2-9]/.test(subscriber);
}

function isOldMobilePrefix(eightDigits: string): boolean {
  return /^[6-9]/.test(eightDigits);
}

/** National significant number of a Brazilian E.164 string, else undefined. */
function brNational(e164: string): string | undefined {
  const m = /^\+55(\d{10,11})$/.exec(e164);
  return m !== null && isBrNationalShape(m[1]!) ? m[1] : undefined;
}

function maskBr(national: string): string {
  const area = national.slice(0, 2);
  const subscriber = national.slice(2);
  const split = subscriber.length - 4;
  return `(${area}) ${subscriber.slice(0, split)}-${subscriber.slice(split)}`;
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

export function phoneProbes(e164: string, opts: PhoneOptions): Probes {
  const national = brNational(e164);
  const probes = national !== undefined ? brProbes(national, opts) : foreignProbes(e164, opts);
  return {
    exact: [...new Set(probes.exact)].slice(0, PHONE_EXACT_SLOTS),
    prefixes: [...new Set(probes.prefixes)].slice(0, PHONE_PREFIX_SLOTS),
  };
}

/**
 * Whether the probes find a stored value, as the database compares: SQL Server's and
 * MySQL's `=` ignore trailing spaces (`padded`), SQLite's and PostgreSQL's do not.
 */
export function probesFind(stored: unknown, probes: Probes, padded: boolean): boolean {
  const text = typeof stored === 'string' ? stored : typeof stored === 'number' || typeof stored === 'bigint' ? String(stored) : undefined;
  if (text === undefined) return false;
  const whole = padded ? text.replace(/ +$/, '') : text;
  return probes.exact.includes(whole) || probes.prefixes.some((p) => text.startsWith(p));
}

// Every spelling found in the samples and in clinic systems we know of: digits with or
// without country code (+55, 55), trunk 0 or area code; masks with the area code in
// parentheses, spaced, hyphenated; the ninth digit alone ('(11) 9 8765-4321'). The old
// 8-digit form of a mobile is probed too (phoneKeys' twin), and the number without its area
// code only for the mapping's default area code (that is how toE164 reads such a value).
function brProbes(national: string, opts: PhoneOptions): Probes {
  const area = national.slice(0, 2);
  const local = opts.defaultAreaCode?.replace(/\D/g, '').replace(/^0/, '') === area;
  const subscribers = phoneKeys(`+55${national}`).map((k) => k.slice(5));
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const s of subscribers) {
    const h = s.slice(0, -4);
    const t = s.slice(-4);
    exact.push(`${area}${s}`, `0${area}${s}`, `55${area}${s}`, `+55${area}${s}`,
      `(${area})${h}-${t}`, `(0${area}) ${h}-${t}`, `0${area} ${h}-${t}`, `${area} ${h}-${t}`,
      `+55 (${area}) ${h}-${t}`, `+55 ${area} ${h} ${t}`, `+55 ${area} ${s}`);
    if (s.length === 9) exact.push(`(${area}) 9 ${h.slice(1)}-${t}`);
    if (local) exact.push(s, `${h} ${t}`);
    prefixes.push(`(${area}) ${h}-${t}`, `${area} ${h} ${t}`, `+55 ${area} ${h}-${t}`);
    if (local) prefixes.push(`${h}-${t}`);
  }
  return { exact, prefixes };
}

// A number of another country: E.164 with and without '+' or as 00…, the international and
// national forms libphonenumber writes, and the '+1 (305) 413-5791' / '+1 305-413-5791' mixes.
function foreignProbes(e164: string, opts: PhoneOptions): Probes {
  const digits = e164.replace(/\D/g, '');
  const exact = [e164, digits, `00${digits}`];
  const prefixes: string[] = [];
  const parsed = parsePhoneNumberFromString(e164);
  if (parsed !== undefined) {
    const cc = `+${parsed.countryCallingCode}`;
    const international = parsed.formatInternational();
    const national = parsed.formatNational();
    exact.push(`${cc} ${international.slice(cc.length + 1).replace(/ /g, '-')}`, `${cc}${parsed.nationalNumber}`);
    prefixes.push(international, `${cc} ${national}`);
    if (parsed.country === opts.defaultCountry.toUpperCase()) {
      exact.push(parsed.nationalNumber);
      prefixes.push(national);
    }
  }
  return { exact, prefixes };
}

function callingCodeOf(country: string): string | undefined {
  try {
    return getCountryCallingCode(country.toUpperCase() as CountryCode);
  } catch {
    return undefined;
  }
}
