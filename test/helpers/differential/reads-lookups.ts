// Lookup requests: every list, every record by id (and spellings of ids that are not it),
// every filter with every value the data holds, and pairs of filters.
import type { Differ } from './differ.js'
import type { Rng } from './seeded.js'
import { idSpellings } from './spellings.js'

const q = encodeURIComponent

export const LOOKUPS = {
  professional: '/professionals',
  location: '/locations',
  service: '/services',
  healthInsurance: '/health-insurances',
  specialty: '/specialties'
} as const

export type LookupName = keyof typeof LOOKUPS
type FilterName = LookupName | 'plan' | 'client' | 'enabled'

/** The filters each list accepts (interface spec §4). */
const FILTERS: Record<LookupName, FilterName[]> = {
  professional: ['location', 'service', 'healthInsurance', 'specialty', 'enabled'],
  location: ['service', 'professional', 'specialty', 'client'],
  service: ['location', 'professional', 'healthInsurance', 'specialty', 'plan', 'client', 'enabled'],
  healthInsurance: ['service', 'location', 'professional'],
  specialty: ['healthInsurance', 'location', 'plan', 'professional']
}

export type Catalog = Record<LookupName, string[]>

/** Every list unfiltered and every record by id; returns the ids, for filters elsewhere. */
export async function lookupCatalog (d: Differ): Promise<Catalog> {
  d.begin('lookups')
  const catalog = {} as Catalog
  for (const [name, path] of Object.entries(LOOKUPS) as [LookupName, string][]) {
    const r = await d.get(path)
    catalog[name] = Array.isArray(r.body) ? r.body.map((x: { id: string }) => x.id) : []
    for (const id of catalog[name]) await d.get(`${path}/${q(id)}`)
    for (const id of catalog[name].slice(0, 2)) for (const v of idSpellings(id)) await d.get(`${path}/${q(v)}`, 'id spelling')
    await d.get(`${path}/${q('does-not-exist')}`)
  }
  return catalog
}

/**
 * Every single filter with every value, then seeded pairs of filters. `plans` are candidate
 * plan ids (the interface lists no plans), `clients` client ids taken from the data.
 */
export async function lookupFilters (d: Differ, rng: Rng, catalog: Catalog, clients: string[], plans: string[], pairBudget: number): Promise<void> {
  d.begin('lookup filters')
  const values = (f: FilterName): string[] => f === 'enabled' ? ['true', 'false'] : f === 'plan' ? plans : f === 'client' ? clients : catalog[f]
  for (const [name, path] of Object.entries(LOOKUPS) as [LookupName, string][]) {
    for (const f of FILTERS[name]) {
      for (const v of values(f)) await d.get(`${path}?${f}=${q(v)}`)
      // A spelling of an id that is not it filters to nothing, the same everywhere.
      if (f !== 'enabled' && values(f).length > 0) for (const v of idSpellings(values(f)[0])) await d.get(`${path}?${f}=${q(v)}`, 'id spelling')
    }
    const pairs: string[] = []
    const fs = FILTERS[name]
    for (let i = 0; i < fs.length; i++) {
      for (let j = i + 1; j < fs.length; j++) {
        for (const a of values(fs[i])) for (const b of values(fs[j])) pairs.push(`${fs[i]}=${q(a)}&${fs[j]}=${q(b)}`)
      }
    }
    for (const p of rng.sample(pairs, pairBudget)) await d.get(`${path}?${p}`, 'pair')
  }
  d.begin('professional × service')
  // Each professional with each service: what /locations and /health-insurances answer for the pair.
  for (const p of catalog.professional) {
    const offered = await d.get(`/services?professional=${q(p)}`)
    const services = Array.isArray(offered.body) ? offered.body.map((x: { id: string }) => x.id) : []
    for (const s of [...services, ...rng.sample(catalog.service, 2)]) {
      await d.get(`/locations?professional=${q(p)}&service=${q(s)}`)
      await d.get(`/health-insurances?professional=${q(p)}&service=${q(s)}`)
    }
  }
}
