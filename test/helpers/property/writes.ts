// Random writes against one generated installation, as the caller platform sends them, each
// with the values it must read back as (the interface's normalisation of what was sent).
import { DAYS, TIMEZONES, type Installation } from './installation.js'
import type { Random } from './random.js'
import { birthdaySent, cpfSent, emailSent, personName, phoneSent } from './values.js'

export type WriteKind = 'POST /clients' | 'PATCH /clients' | 'POST /appointments' | 'PATCH state' | 'PATCH time'

export interface Write {
  kind: WriteKind
  method: 'POST' | 'PATCH'
  url: string
  /** The record written: a PATCH's id; for a POST, known from the answer. */
  id?: string
  body: Record<string, string>
  /** Each field sent, as it must read back. */
  expected: Record<string, string>
}

/** What the installation holds so far: the records a write can name. */
export interface World {
  clients: string[]
  appointments: string[]
}

/** The clinic's local date of an instant (the interface takes an ISO date-time's local date). */
function localDate (iso: string, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso))
}

/** A date and hour in the future (2031), the date now and then as a UTC date-time. */
function slot (r: Random, inst: Installation): { body: Record<string, string>, expected: Record<string, string> } {
  const day = r.pick(DAYS)
  const hour = `${String(r.int(7, 18)).padStart(2, '0')}:${r.pick(['00', '15', '30', '45'])}`
  if (r.chance(0.1)) {
    const iso = `${day}T${String(r.int(0, 23)).padStart(2, '0')}:30:00Z`
    return { body: { date: iso, hour }, expected: { date: localDate(iso, TIMEZONES[inst.shape.country]), hour } }
  }
  return { body: { date: day, hour }, expected: { date: day, hour } }
}

export function nextWrite (r: Random, inst: Installation, world: World): Write {
  const { shape, seeded } = inst
  const kind = r.pick<WriteKind>(['POST /clients', 'POST /clients', 'POST /clients', 'PATCH /clients', 'PATCH /clients',
    'POST /appointments', 'POST /appointments', 'POST /appointments', 'POST /appointments', 'PATCH state', 'PATCH state', 'PATCH time', 'PATCH time'])
  const body: Record<string, string> = {}
  const expected: Record<string, string> = {}
  const put = (field: string, v: { sent: string, expected: string }): void => { body[field] = v.sent; expected[field] = v.expected }

  if (kind === 'POST /clients' || kind === 'PATCH /clients') {
    const creating = kind === 'POST /clients'
    const phone = creating ? phoneSent(r, shape.country, shape.areaCode) : undefined
    const fields = creating
      ? ['name', ...r.some(['email', 'cpf', 'birthday'])]
      : r.some(['name', 'email', 'cpf', 'birthday'], 1)
    for (const f of fields) {
      if (f === 'name') put('name', personName(r, phone?.sent))
      if (f === 'email') put('email', emailSent(r))
      if (f === 'cpf') put('cpf', cpfSent(r))
      if (f === 'birthday') put('birthday', birthdaySent(r))
    }
    if (phone) put('phone', phone)
    // "May be ignored if not applicable": no generated mapping stores it.
    if (creating && r.chance(0.1)) put('healthInsurance', { sent: r.pick(seeded.insurers), expected: '' })
    if (creating) return { kind, method: 'POST', url: '/clients', body, expected }
    const id = r.pick(world.clients)
    return { kind, method: 'PATCH', url: `/clients/${id}`, id, body, expected }
  }

  if (kind === 'POST /appointments' || world.appointments.length === 0) {
    const at = slot(r, inst)
    Object.assign(body, at.body)
    Object.assign(expected, at.expected)
    // Now and then an id nothing has: refused, naming it.
    const client = r.chance(0.04) ? '999' : r.pick(world.clients)
    put('client', { sent: client, expected: client })
    if (r.chance(0.85)) {
      const professional = r.chance(0.03) ? '98' : r.pick(seeded.professionals)
      put('professional', { sent: professional, expected: professional })
    }
    if (r.chance(0.5)) { const service = r.pick(seeded.services); put('service', { sent: service, expected: service }) }
    if (r.chance(0.35)) { const insurer = r.pick(seeded.insurers); put('healthInsurance', { sent: insurer, expected: insurer }) }
    return { kind: 'POST /appointments', method: 'POST', url: '/appointments', body, expected }
  }

  const id = r.pick(world.appointments)
  if (kind === 'PATCH state') {
    // Now and then a state this installation does not have.
    const state = r.chance(0.05) ? 'RESCHEDULED' : r.pick(shape.states)
    put('state', { sent: state, expected: state })
    return { kind, method: 'PATCH', url: `/appointments/${id}/state`, id, body, expected }
  }
  const at = slot(r, inst)
  Object.assign(body, at.body)
  Object.assign(expected, at.expected)
  return { kind, method: 'PATCH', url: `/appointments/${id}/time`, id, body, expected }
}
