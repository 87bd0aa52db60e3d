// Availability requests: several professionals over several weeks, with and without their
// services, by location, specialty and insurance, and at the edges of the date window.
import type { Differ } from './differ.js'
import { addDays, type Rng } from './seeded.js'
import type { Catalog } from './reads-lookups.js'

const q = encodeURIComponent

export async function availability (d: Differ, rng: Rng, catalog: Catalog, anchor: string): Promise<void> {
  d.begin('availability')
  const first = await d.get(`/availability?start=${anchor}&end=${anchor}`)
  // A mapping without availability answers 404 on every side: nothing more to compare.
  if (first.status === 404) return
  const weeks = [addDays(anchor, 1), addDays(anchor, 44)]
  for (const p of catalog.professional) {
    const offered = await d.get(`/services?professional=${q(p)}&enabled=true`)
    const services = Array.isArray(offered.body) ? offered.body.map((x: { id: string }) => x.id) : []
    for (const start of weeks) {
      const range = `start=${start}&end=${addDays(start, 6)}`
      await d.get(`/availability?${range}&professional=${q(p)}`)
      for (const svc of rng.sample(services, 1)) await d.get(`/availability?${range}&professional=${q(p)}&service=${q(svc)}`)
    }
  }
  const range = `start=${weeks[0]}&end=${addDays(weeks[0], 2)}`
  for (const [f, ids] of [['location', catalog.location], ['specialty', catalog.specialty], ['healthInsurance', catalog.healthInsurance], ['service', rng.sample(catalog.service, 6)]] as const) {
    for (const id of ids) await d.get(`/availability?${range}&${f}=${q(id)}`)
  }
  d.begin('availability edges')
  for (const [start, end] of [['1900-01-01', '1900-01-01'], ['2199-12-31', '2199-12-31'], ['2199-12-01', '2199-12-31'], [anchor, addDays(anchor, 30)],
    [anchor, addDays(anchor, 31)], [addDays(anchor, 1), anchor], ['1899-12-31', '1900-01-01'], [`${weeks[0]}T02:00:00Z`, `${weeks[0]}T02:00:00Z`]]) {
    await d.get(`/availability?start=${q(start)}&end=${q(end)}&professional=${q(catalog.professional[0] ?? '1')}`, 'edge')
  }
}
