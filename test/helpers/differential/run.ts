// One sample's whole request list, in order: reads first (on the fixture as loaded), then the
// text probes and the scripted writes. Every request goes to every side (differ.ts).
import { readFileSync } from 'node:fs'
import type { Differ } from './differ.js'
import { seeded } from './seeded.js'
import { sampleFixture } from '../../../src/installation.js'
import { lookupCatalog, lookupFilters } from './reads-lookups.js'
import { clientDetails, clientPages, clientSearches } from './reads-clients.js'
import { appointmentDetails, appointmentFilters, appointmentRanges, surveyAppointments } from './reads-appointments.js'
import { availability } from './reads-availability.js'
import { textProbes, unusualCharacters } from './text-probes.js'
import { scriptedWrites } from './writes-script.js'

export const SEED = 20261122

/** The "today" a sample fixture is written around (its description says so). */
export function fixtureToday (mapping: string): string {
  const fx = JSON.parse(readFileSync(sampleFixture(mapping), 'utf8')) as { description?: string }
  const m = /today"?\s+is\s+(\d{4}-\d{2}-\d{2})/i.exec(fx.description ?? '')
  if (!m) throw new Error(`${mapping}: the fixture's description does not say which day is "today"`)
  return m[1]
}

// Plan ids are never listed by the interface: small integers, some held and some not.
const PLAN_CANDIDATES = Array.from({ length: 16 }, (_, i) => String(i + 1))

export async function runSample (d: Differ, mapping: string, seed: number = SEED): Promise<void> {
  const rng = seeded(seed)
  const anchor = fixtureToday(mapping)
  const model = d.reference.inst.model
  const areaCode = model.phone.defaultAreaCode ?? '11'
  const states = model.states.values

  const catalog = await lookupCatalog(d)
  const clients = await clientPages(d, rng)
  await lookupFilters(d, rng, catalog, rng.sample(clients, 20).map((c) => c.id), PLAN_CANDIDATES, 30)
  const survey = await surveyAppointments(d, anchor)
  await appointmentRanges(d, rng, survey, anchor)
  await appointmentFilters(d, rng, survey, catalog, states)
  await appointmentDetails(d, rng, survey, 150)
  await clientDetails(d, rng, clients, 80)
  await clientSearches(d, rng, clients, 6)
  await availability(d, rng, catalog, anchor)
  await textProbes(d, areaCode)
  await scriptedWrites(d, anchor, areaCode, clients.length)
  await unusualCharacters(d, areaCode)
}
