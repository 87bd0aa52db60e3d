// The scripted writes, applied in the same order to every side: clients created and patched,
// appointments booked, rescheduled, confirmed and cancelled, a refused move, a slot taken
// twice, and an Idempotency-Key replay. Each side uses the ids it generated itself, so a
// difference in key generation shows once, where it happens, and not in every later request.
import type { Differ, Reply } from './differ.js'
import type { Side } from './sides.js'
import { addDays } from './seeded.js'

const q = encodeURIComponent

interface Slot { date: string, hour: string, endHour?: string, professional: string, location?: string, service?: string }

/** Per side, the ids that side answered with. */
class Ids {
  private readonly bySide = new Map<string, Map<string, string>>()
  keep (d: Differ, name: string, r: Reply): void {
    for (const s of d.sides) {
      const id = r.of(s)?.id
      if (typeof id === 'string') this.map(s).set(name, id)
    }
  }

  of (s: Side, name: string): string {
    return this.map(s).get(name) ?? `missing-${name}`
  }

  private map (s: Side): Map<string, string> {
    let m = this.bySide.get(s.name)
    if (!m) { m = new Map(); this.bySide.set(s.name, m) }
    return m
  }
}

/** Free, non-overlapping slots of the first professional with a timed service (from the reference's availability). */
async function freeSlots (d: Differ, anchor: string): Promise<Slot[]> {
  const pros = (await d.get('/professionals?enabled=true')).body as any[] ?? []
  const start = addDays(anchor, 50)
  for (const p of pros) {
    const services = (await d.get(`/services?professional=${q(p.id)}&enabled=true`)).body as any[] ?? []
    const s = services.find((x) => typeof x.duration === 'number' && x.duration > 0)
    if (!s) continue
    const r = await d.get(`/availability?start=${start}&end=${addDays(start, 13)}&professional=${q(p.id)}&service=${q(s.id)}`)
    if (r.status !== 200 || !Array.isArray(r.body)) continue
    const slots: Slot[] = []
    for (const x of r.body) {
      if (slots.some((y) => y.date === x.date && y.hour < x.endHour && x.hour < (y.endHour ?? y.hour))) continue
      slots.push({ date: x.date, hour: x.hour, endHour: x.endHour, professional: x.professional.id, location: x.location?.id, service: x.service?.id ?? s.id })
    }
    if (slots.length >= 8) return slots
  }
  return []
}

const booking = (slot: Slot, client: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  date: slot.date,
  hour: slot.hour,
  client,
  professional: slot.professional,
  ...(slot.service !== undefined ? { service: slot.service } : {}),
  ...(slot.location !== undefined ? { location: slot.location } : {}),
  ...extra
})

export async function scriptedWrites (d: Differ, anchor: string, areaCode: string, clientCount: number): Promise<void> {
  d.begin('writes: clients')
  const ids = new Ids()
  const phone = (n: number): string => `+55${areaCode}97${String(4_310_000 + n * 7919).padStart(7, '0').slice(-7)}`
  const post = async (name: string, body: Record<string, unknown>): Promise<Reply> => {
    const r = await d.ask({ method: 'POST', url: '/clients', body, label: name })
    ids.keep(d, name, r)
    return r
  }
  await post('full', { name: 'Conceição Araújo Müller', phone: phone(1), email: 'Conceicao.Muller@Example.com', birthday: '1987-03-09', cpf: '52998224725' })
  await post('minimal', { name: 'Ana Lima', phone: phone(2) })
  await post('phone as name', { name: phone(3), phone: phone(3) })
  await post('masked phone', { name: 'Jose Carlos Peçanha', phone: `(${areaCode}) 9${String(phone(4)).slice(-8, -4)}-${phone(4).slice(-4)}` })
  for (const [label, body] of [
    ['bad cpf', { name: 'CPF Errado', phone: phone(5), cpf: '52998224726' }],
    ['bad phone', { name: 'Fone Errado', phone: '12' }],
    ['bad birthday', { name: 'Data Errada', phone: phone(6), birthday: '2001-02-29' }],
    ['no name', { phone: phone(7) }],
    ['unknown key', { name: 'Chave', phone: phone(8), nickname: 'x' }]
  ] as const) await d.ask({ method: 'POST', url: '/clients', body, label })
  for (const name of ['full', 'minimal', 'phone as name', 'masked phone']) await d.ask((s) => ({ method: 'GET', url: `/clients/${q(ids.of(s, name))}`, label: name }))
  for (const term of [phone(1), 'conceicao araujo muller', 'CONCEIÇÃO ARAÚJO MÜLLER ', '529.982.247-25', 'conceicao.muller@example.com', 'jose carlos pecanha']) {
    await d.get(`/clients/search?term=${q(term)}`, 'new client')
  }

  d.begin('writes: client patches')
  for (const [label, body] of [
    ['name', { name: 'Conceição Araújo Müller Neto' }], ['email', { email: 'neto@example.com' }], ['cpf', { cpf: '11144477735' }],
    ['birthday', { birthday: '1990-12-31' }], ['all', { name: 'Ana Lima Souza', email: 'ana@example.com', cpf: '39053344705', birthday: '2000-02-29' }],
    ['bad cpf', { cpf: '11144477736' }], ['empty', {}], ['empty name', { name: '' }]
  ] as const) {
    const who = label === 'all' ? 'minimal' : 'full'
    await d.ask((s) => ({ method: 'PATCH', url: `/clients/${q(ids.of(s, who))}`, body, label }))
  }
  await d.ask({ method: 'PATCH', url: '/clients/999999999', body: { name: 'Ninguém' }, label: 'unknown client' })
  for (const name of ['full', 'minimal']) await d.ask((s) => ({ method: 'GET', url: `/clients/${q(ids.of(s, name))}`, label: `after patch ${name}` }))

  d.begin('writes: appointments')
  const slots = await freeSlots(d, anchor)
  if (slots.length < 8) throw new Error('the reference side has too few free slots for the scripted writes')
  const book = async (name: string, slot: Slot, client: string, headers?: Record<string, string>): Promise<Reply> => {
    const r = await d.ask((s) => ({ method: 'POST', url: '/appointments', body: booking(slot, ids.of(s, client)), label: name, ...(headers ? { headers } : {}) }))
    ids.keep(d, name, r)
    return r
  }
  const appt = (name: string, suffix = ''): ((s: Side) => string) => (s) => `/appointments/${q(ids.of(s, name))}${suffix}`
  await book('first', slots[0], 'full')
  await book('second', slots[1], 'minimal')
  await book('same slot again', slots[0], 'masked phone')
  for (const name of ['first', 'second']) await d.ask((s) => ({ method: 'GET', url: appt(name)(s), label: name }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/time')(s), body: { date: slots[2].date, hour: slots[2].hour }, label: 'reschedule' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('second', '/time')(s), body: { date: slots[2].date, hour: slots[2].hour }, label: 'refused move onto a taken slot' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('second', '/time')(s), body: { date: '2199-12-31', hour: '10:00' }, label: 'move to the window\'s last day' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/state')(s), body: { state: 'CONFIRMED' }, label: 'confirm' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('second', '/state')(s), body: { state: 'CANCELED' }, label: 'cancel' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('second', '/state')(s), body: { state: 'CONFIRMED' }, label: 'refused move out of CANCELED' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/state')(s), body: { state: 'confirmed' }, label: 'state in lower case (refused)' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/state')(s), body: { state: 'NOT-A-STATE' }, label: 'unknown state' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('second', '/time')(s), body: { date: slots[3].date, hour: slots[3].hour }, label: 'reschedule a cancelled one' }))
  await book('onto the cancelled slot', slots[1], 'phone as name')
  await book('the window\'s last day', { ...slots[4], date: '2199-12-31' }, 'full')
  await book('before the window', { ...slots[4], date: '1899-12-31' }, 'full')
  await book('unknown client', slots[4], 'nobody')
  // Refused for an unknown reference: whether Ponte or the database's own keys refuse it, the
  // answer is the same, and the next generated id must not have moved on one side only.
  for (const [ref, id] of [['professional', '999999'], ['service', '999999'], ['location', 'CLN-99'], ['healthInsurance', '999999'], ['plan', '999999']] as const) {
    await d.ask((s) => ({ method: 'POST', url: '/appointments', body: { ...booking(slots[4], ids.of(s, 'full')), [ref]: id }, label: `unknown ${ref}` }))
  }
  await post('unknown insurance', { name: 'Convênio Inexistente', phone: phone(9), healthInsurance: '999999' })
  await post('unknown location', { name: 'Unidade Inexistente', phone: phone(10), location: 'CLN-99' })
  await book('after the refusals', slots[4], 'minimal')

  // The body pattern allows a one-digit hour ('9:00'): stored and read back in one form everywhere.
  const short = { ...slots[7], hour: slots[7].hour.replace(/^0/, '') }
  await book('one-digit hour', short, 'masked phone')
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/state')(s), body: { state: 'CONFIRMED' }, label: 'confirm again' }))
  await d.ask((s) => ({ method: 'PATCH', url: appt('first', '/time')(s), body: { date: slots[2].date, hour: slots[2].hour }, label: 'reschedule onto its own slot' }))

  d.begin('writes: idempotency')
  const key = { 'idempotency-key': 'differential-0001' }
  await book('with a key', slots[5], 'minimal', key)
  await book('replayed', slots[5], 'minimal', key)
  await book('same key, another body', slots[6], 'minimal', key)
  await book('no key, same slot', slots[5], 'full')

  d.begin('writes: read back')
  for (const name of ['first', 'second', 'onto the cancelled slot', 'after the refusals', 'one-digit hour', 'with a key']) await d.ask((s) => ({ method: 'GET', url: appt(name)(s), label: name }))
  const days = [...new Set(slots.slice(0, 7).map((x) => x.date))].sort()
  for (const minimal of ['', '&minimal=true']) await d.get(`/appointments?start=${days[0]}&end=${days[days.length - 1]}${minimal}`)
  await d.get(`/appointments?start=${days[0]}&end=${days[days.length - 1]}&professional=${q(slots[0].professional)}&state=WAITING`)
  await d.ask((s) => ({ method: 'GET', url: `/appointments?start=${days[0]}&end=${days[days.length - 1]}&client=${q(ids.of(s, 'full'))}`, label: 'by new client' }))
  await d.get(`/availability?start=${days[0]}&end=${days[days.length - 1]}&professional=${q(slots[0].professional)}${slots[0].service !== undefined ? `&service=${q(slots[0].service)}` : ''}`)
  // The last page: the clients created above, in key order after the fixture's own.
  await d.get(`/clients?limit=50&offset=${Math.max(0, clientCount - 5)}`)
}
