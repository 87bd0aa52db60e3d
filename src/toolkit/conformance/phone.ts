// The phone conformance registers a client with: a mobile of the installation's own country,
// so the write path of its `phoneFormat` is the one proven (a foreign number is kept in E.164).
import { getExampleNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import examples from 'libphonenumber-js/mobile/examples'

/**
 * The installation's country as its stored phones say (the interface does not name it):
 * the most frequent country among them; `fallback` when none reads.
 */
export function homeCountry (phones: unknown[], fallback = 'BR'): string {
  const counts = new Map<string, number>()
  for (const p of phones) {
    const country = typeof p === 'string' ? parsePhoneNumberFromString(p)?.country : undefined
    if (country !== undefined) counts.set(country, (counts.get(country) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? fallback
}

/** libphonenumber's example mobile of a country, in E.164; undefined for a code it does not know. */
export function exampleMobile (country: string): string | undefined {
  try {
    return getExampleNumber(country.toUpperCase() as CountryCode, examples)?.number
  } catch {
    return undefined
  }
}
