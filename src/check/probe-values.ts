// What the write probe sends: values of the shapes a real caller sends (a mobile of the
// clinic's country, a CPF with valid check digits, an adult's birthday), an existing client,
// and free slots as /availability offers them, so each write path runs as it would in service.
import type { ClientField } from '../mapping/compile/index.js'
import type { MappingModel } from '../mapping/model.js'
import type { Availability } from '../services/availability.js'
import type { Snapshot } from '../services/catalog.js'
import { addDays } from '../normalise/datetime.js'
import { exampleMobile } from '../toolkit/conformance/phone.js'

/**
 * Client values in the interface's canonical form: what the service stores is these, unchanged.
 * Short, so they fit the narrow name and e-mail columns legacy schemas have (16 characters).
 */
export function clientValues (model: MappingModel): Record<ClientField, string> {
  return {
    name: 'Marina Teste',
    phone: MOBILES[model.phone.defaultCountry] ?? exampleMobile(model.phone.defaultCountry) ?? MOBILES.BR,
    email: 'mt@example.com',
    cpf: '52998224725',
    birthday: '1985-04-12',
    allPhones: '',
    healthInsurance: '',
    location: ''
  }
}

/** A PATCH's values: unlike the registration's, so a correction that stores nothing is seen. */
export const PATCH_VALUES: Partial<Record<ClientField, string>> = {
  name: 'Marina Corrigida',
  email: 'mc@example.org',
  cpf: '11144477735',
  birthday: '1979-09-30'
}

// Mobiles of the numbering plans' documentation ranges where they have one; elsewhere the phone
// library's example mobile, so the installation's own `phoneFormat` is the one written.
const MOBILES: Record<string, string> = {
  BR: '+5511987654321',
  US: '+12025550143',
  CA: '+16135550143',
  PT: '+351912345678'
}

export interface ProbeSlot { date: string, hour: string, professional: string, location?: string, service?: string }

/**
 * Free slots from tomorrow on, as /availability offers them; where the mapping has no working
 * hours, the hours of a working day of every enabled professional (a booking is then only
 * refused by what it collides with).
 */
export async function freeSlots (availability: Availability, snap: Snapshot, today: string): Promise<ProbeSlot[]> {
  const start = addDays(today, 1)
  if (availability.isMapped()) {
    const slots = await availability.freeSlots({ start, end: addDays(start, 27) }, undefined)
    return slots.map((s) => ({ date: s.date, hour: s.hour, professional: s.professional.id, location: s.location?.id, service: s.service?.id }))
  }
  const professionals = snap.list('professional').filter((p) => p.enabled).map((p) => p.id)
  const out: ProbeSlot[] = []
  for (let day = 0; day < 3; day++) {
    for (const hour of ['09:00', '10:00', '11:00', '14:00', '15:00']) {
      for (const professional of professionals) out.push({ date: addDays(start, day), hour, professional })
    }
  }
  return out
}

/** An id of `name` the booking can send with this professional: related to it where the mapping relates them, and enabled. */
export function refFor (snap: Snapshot, name: 'service' | 'location' | 'healthInsurance', professional: string, given?: string): string | undefined {
  if (given !== undefined) return given
  const related = snap.related('professional', professional, name)
  const enabled = snap.list(name).filter((r) => r.enabled).map((r) => r.id)
  return enabled.find((id) => related === undefined || related.has(id))
}
