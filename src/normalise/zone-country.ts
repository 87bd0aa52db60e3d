// Where an IANA zone is kept and which zone a country keeps, from the tz database's own
// zone-to-country table (countries-and-timezones): a clinic's clock and its phones' country must agree.
import { getCountry, getTimezone } from 'countries-and-timezones'

/** The countries (ISO 3166) that keep `zone`; none for UTC and zones of no country. */
export const zoneCountries = (zone: string): string[] => getTimezone(zone)?.countries ?? []

/** The zone of a country that keeps only one (Portugal keeps three, the United States many). */
export function soleZone (country: string): string | undefined {
  const zones = getCountry(country)?.timezones ?? []
  return zones.length === 1 ? zones[0] : undefined
}
