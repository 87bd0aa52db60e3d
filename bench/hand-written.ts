// The baseline: what a developer would write by hand for Clínica Sorriso alone. Plain
// fastify, SQL typed for this schema (one statement per request), rows mapped in plain JS,
// lookups cached in memory (as Ponte caches them). Only the routes the benchmark measures,
// and only phone terms in the client search. Phone and CPF parsing reuse src/normalise: that
// is domain logic any hand-written version needs as well, not mapping machinery.
// It does the work a production route must do, as Ponte does it: the API key hashed and
// compared in constant time against the stored SHA-256 (src/plugins/auth.ts's keyFinder), a
// per-key rate limit (@fastify/rate-limit, as Ponte registers it), closed query validation
// (unknown or repeated parameters, malformed dates and flags are 400s), and one pino line per
// request and per response with Ponte's allow-list serializers (src/logging.ts).
// Its statements are its store's (hand-written/sqlite.ts, hand-written/network.ts for
// MariaDB and PostgreSQL); the routes and the JSON they answer are the same on each.
import { createHash } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { keyFinder, presentedKey } from '../src/plugins/auth.js'
import { loggerOptions } from '../src/logging.js'
import { parsePhoneInput, phoneProbes, samePhone, toE164, PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS } from '../src/normalise/phone.js'
import { normaliseCpf } from '../src/normalise/cpf.js'
import { localNow, type BaselineStore, type LookupRows, type PhoneProbes, type Row } from './hand-written/store.js'

type Obj = Record<string, unknown>

const TTL_MS = 300_000
const STATES: Record<string, string> = { X: 'CANCELED', F: 'MISSED', R: 'DONE' }
const KINDS: Record<string, string> = { C: 'Consulta', R: 'Retorno', P: 'Primeira vez', U: 'Urgência', E: 'Encaixe' }
const PHONE_OPTS = { defaultCountry: 'BR', defaultAreaCode: '11' }

/** A number's stored spellings, each slot list filled by repeating the first: a fixed number of placeholders. */
const probeParams = (e164: string): PhoneProbes => {
  const { exact, prefixes } = phoneProbes(e164, PHONE_OPTS)
  const ranges: [string, string][] = []
  for (let i = 0; i < PHONE_PREFIX_SLOTS; i++) {
    const p = prefixes[i] ?? prefixes[0] ?? exact[0]!
    ranges.push([p, p.slice(0, -1) + String.fromCodePoint(p.codePointAt(p.length - 1)! + 1)])
  }
  return { exact: Array.from({ length: PHONE_EXACT_SLOTS }, (_, i) => exact[i] ?? exact[0]!), ranges }
}

const text = (x: unknown): string | undefined => {
  if (x === null || x === undefined) return undefined
  const s = String(x).trim()
  return s === '' ? undefined : s
}
/** Template parts joined by the separator before each, written only between non-blank parts. */
const joinParts = (parts: [string, unknown][]): string | undefined => {
  let out = ''
  for (const [sep, x] of parts) {
    const t = text(x)
    if (t !== undefined) out += (out === '' ? '' : sep) + t
  }
  return out === '' ? undefined : out
}
const num = (x: unknown): number | undefined => x === null || x === undefined || x === '' ? undefined : Number(x)
/** Fields set only when present, as the interface wants. */
const compact = (o: Obj): Obj => {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k]
  return o
}
const hourOf = (h: string): string => h.trim().padStart(5, '0') // '9:30 ' → '09:30'
const plusMinutes = (hour: string, minutes: number): string | undefined => {
  const total = Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3)) + minutes
  if (total >= 24 * 60) return undefined
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`
}

function client (r: Row): Obj | undefined {
  if (r.ID_PACIENTE === null) return undefined
  const phones: string[] = []
  for (const raw of [r.CELULAR, r.FONE_RES, r.FONE_COM]) {
    const p = toE164(raw, PHONE_OPTS)
    if (p !== undefined && !phones.some((q) => samePhone(q, p))) phones.push(p)
  }
  const birthday = text(r.DT_NASC)
  return compact({
    id: String(r.ID_PACIENTE),
    name: text(r.NOME_SOCIAL) ?? text(r.NOME) ?? '',
    description: text(r.OBS),
    cpf: normaliseCpf(r.CPF),
    email: text(r.EMAIL),
    birthday: birthday !== undefined && birthday > '1900-01-01' ? birthday : undefined,
    externalId: text(r.PRONTUARIO),
    phone: phones[0],
    allPhones: phones.length > 0 ? phones : undefined
  })
}

interface Lookups {
  loadedAt: number
  professionals: Map<number, Obj>
  locations: Map<number, Obj>
  services: Map<number, Obj>
  insurances: Map<number, Obj>
  specialties: Map<number, Obj>
  professionalsByService: Map<number, Obj[]>
  /** The room a booking at a unit is written with (the lowest-numbered, as the legacy system does). */
  roomOfUnit: Map<number, number>
  unitsOfProfessional: Map<number, Set<number>>
  enabledProfessionals: Set<number>
}

function lookupsOf (t: LookupRows): Lookups {
  const byId = (rows: Row[], read: (r: Row) => Obj): Map<number, Obj> => new Map(rows.map((r) => [Number(r.ID), read(r)]))
  const specialties = byId(t.specialties,
    (r) => compact({ id: String(r.ID), name: text(r.DESCRICAO) ?? '', cbo: text(r.CBO) }))
  const profSpecialties = new Map<number, Obj[]>()
  for (const r of t.profSpecialties) {
    const s = specialties.get(r.ID_ESPECIALIDADE)
    if (s) profSpecialties.set(r.ID_PROFISSIONAL, [...(profSpecialties.get(r.ID_PROFISSIONAL) ?? []), s])
  }
  const professionals = byId(t.professionals, (r) => compact({
    id: String(r.ID),
    name: text(r.NOME) ?? '',
    description: text(r.CURRICULO),
    image: text(r.FOTO_URL),
    expertise: text(r.TITULO),
    register: joinParts([['', r.CONSELHO], [' ', r.NR_CONSELHO], ['/', r.UF_CONSELHO]]),
    specialties: (profSpecialties.get(r.ID) ?? []).sort((a, b) => String(a.name).localeCompare(String(b.name)))
  }))
  const locations = byId(t.locations, (r) => {
    return compact({
      id: String(r.ID),
      name: text(r.NOME),
      address: joinParts([['', r.RUA], [', ', r.NUMERO], [', ', r.COMPLEMENTO], [' - ', r.BAIRRO]]) ?? '',
      city: text(r.CIDADE),
      state: text(r.UF),
      cep: text(r.CEP),
      lat: num(r.LATITUDE),
      long: num(r.LONGITUDE)
    })
  })
  const services = byId(t.services, (r) => compact({
    id: String(r.ID),
    name: text(r.DESCRICAO) ?? '',
    price: num(r.VALOR),
    duration: r.DURACAO_MIN > 0 ? r.DURACAO_MIN : undefined,
    description: text(r.OBS),
    preparation: text(r.PREPARO)
  }))
  const insurances = byId(t.insurances,
    (r) => compact({ id: String(r.ID), name: text(r.NOME) ?? '', color: text(r.COR) }))
  const professionalsByService = new Map<number, Obj[]>()
  for (const r of t.profServices) {
    const p = professionals.get(r.ID_PROFISSIONAL)
    if (p) professionalsByService.set(r.ID_PROCEDIMENTO, [...(professionalsByService.get(r.ID_PROCEDIMENTO) ?? []), p])
  }
  const roomOfUnit = new Map<number, number>()
  for (const r of t.roomOfUnit) roomOfUnit.set(r.ID_UNIDADE, r.ID_SALA)
  const unitsOfProfessional = new Map<number, Set<number>>()
  for (const r of t.profUnits) unitsOfProfessional.set(r.ID_PROFISSIONAL, (unitsOfProfessional.get(r.ID_PROFISSIONAL) ?? new Set()).add(r.ID_UNIDADE))
  const enabledProfessionals = new Set(t.enabledProfessionals.map((r) => r.ID_PROFISSIONAL as number))
  return { loadedAt: Date.now(), professionals, locations, services, insurances, specialties, professionalsByService, roomOfUnit, unitsOfProfessional, enabledProfessionals }
}

export interface HandWrittenOptions {
  /** SHA-256 (hex) of the accepted API keys. */
  keyHashes: string[]
  /** pino level, or false for no logger. */
  logLevel: string | false
  logStream?: NodeJS.WritableStream
  /** Requests a minute per key; 0: no limit. */
  rateLimitPerMinute: number
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const ID = /^\d{1,9}$/
const CONTROL = /[\u0000-\u001f\u007f]/ // eslint-disable-line no-control-regex

/** The query as the route allows it: known names, each once, no control characters; else the problem. */
function closedQuery (query: unknown, allowed: readonly string[]): Record<string, string> | string {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    if (!allowed.includes(k)) return `unknown parameter "${k}"`
    if (typeof v !== 'string') return `parameter "${k}" given more than once`
    if (v === '' || CONTROL.test(v) || !(v as unknown as { isWellFormed: () => boolean }).isWellFormed()) return `parameter "${k}" is not valid text`
    out[k] = v
  }
  return out
}

export async function buildHandWritten (store: BaselineStore, options: HandWrittenOptions): Promise<{ app: FastifyInstance, statements: () => number }> {
  let cache = lookupsOf(await store.lookupRows())
  // Reloaded in the request that finds them stale, as the SQLite baseline always did.
  const lookups = (): Lookups | Promise<Lookups> => Date.now() - cache.loadedAt > TTL_MS
    ? (async () => (cache = lookupsOf(await store.lookupRows())))()
    : cache

  const state = (r: Row): string => STATES[r.SITUACAO] ?? (r.SITUACAO === 'C' || r.CONFIRMADO === 'S' ? 'CONFIRMED' : 'WAITING')
  const minimal = (r: Row): Obj => {
    const hour = hourOf(r.HORA)
    return compact({
      id: String(r.ID_AGENDA),
      date: r.DATA,
      hour,
      state: state(r),
      endHour: r.DURACAO > 0 ? plusMinutes(hour, r.DURACAO) : undefined,
      classification: r.TIPO_ATEND === null ? undefined : KINDS[r.TIPO_ATEND.trim()]
    })
  }
  const appointment = (r: Row, l: Lookups): Obj => {
    const out = minimal(r)
    const professional = r.FL_HIGIENE === 'S' ? r.ID_HIGIENISTA : r.ID_PROFISSIONAL
    return compact({
      ...out,
      client: client(r),
      location: l.locations.get(r.ID_UNIDADE),
      specialty: l.specialties.get(r.ID_ESPECIALIDADE),
      healthInsurance: l.insurances.get(r.ID_CONVENIO),
      professional: l.professionals.get(professional),
      service: l.services.get(r.ID_PROCEDIMENTO)
    })
  }
  // '9:30 ' sorts after '10:00' in SQL: sort again on the normalised hour (stable).
  const byDateHour = (x: Obj, y: Obj): number => {
    const [a, b] = [x as { date: string, hour: string }, y as { date: string, hour: string }]
    return a.date < b.date ? -1 : a.date > b.date ? 1 : a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0
  }
  const appointments = async (rows: Row[]): Promise<Obj[]> => { const l = await lookups(); return rows.map((r) => appointment(r, l)).sort(byDateHour) }

  const app = Fastify({
    logger: options.logLevel === false ? false : { ...loggerOptions(options.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) }
  })
  app.addHook('onClose', async () => { await store.close() })
  app.get('/health', async () => ({ status: 'ok' }))
  // The interface's routes: behind the key and the rate limit, as Ponte's are.
  await app.register(async (api) => {
    const find = keyFinder(options.keyHashes)
    api.addHook('onRequest', async (request, reply) => {
      if (find(presentedKey(request.headers)) === undefined) return await reply.code(401).send({ title: 'Unauthorized', status: 401 })
    })
    if (options.rateLimitPerMinute > 0) {
      await api.register(rateLimit, {
        global: true,
        max: options.rateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (request) => createHash('sha256').update(presentedKey(request.headers) ?? request.ip).digest('hex')
      })
    }
    const bad = async (reply: FastifyReply, detail: string): Promise<FastifyReply> => await reply.code(400).send({ title: 'Invalid input', status: 400, detail })

    api.get('/appointments', async (request, reply) => {
      const q = closedQuery(request.query, ['start', 'end', 'professional', 'minimal'])
      if (typeof q === 'string') return await bad(reply, q)
      const { start, end, professional } = q
      if (!start || !end || !DATE.test(start) || !DATE.test(end) || end < start) return await bad(reply, 'start and end: YYYY-MM-DD, start first')
      if (q.minimal !== undefined && q.minimal !== 'true' && q.minimal !== 'false') return await bad(reply, 'minimal: true or false')
      if (q.minimal === 'true' && professional === undefined) return (await store.minimalRange(start, end)).map(minimal).sort(byDateHour)
      if (professional === undefined) return await appointments(await store.range(start, end))
      if (!ID.test(professional)) return []
      return await appointments(await store.rangeOfProfessional(start, end, Number(professional)))
    })

    api.get<{ Params: { id: string } }>('/appointments/:id', async (request, reply) => {
      const q = closedQuery(request.query, [])
      if (typeof q === 'string') return await bad(reply, q)
      const row = ID.test(request.params.id) ? await store.byId(Number(request.params.id)) : undefined
      if (!row) return await reply.code(404).send({ title: 'Not found', status: 404 })
      return appointment(row, await lookups())
    })

    api.get('/clients/search', async (request, reply) => {
      const q = closedQuery(request.query, ['term'])
      if (typeof q === 'string') return await bad(reply, q)
      const phone = parsePhoneInput(q.term ?? '', PHONE_OPTS)
      if (phone === undefined) return await bad(reply, 'term: a phone')
      const rows = await store.searchPhone(probeParams(phone))
      return rows.flatMap((r) => {
        const c = client(r)
        return c && (c.allPhones as string[] | undefined)?.some((p) => samePhone(p, phone)) ? [c] : []
      }).slice(0, 50)
    })

    const BODY = new Set(['date', 'hour', 'client', 'professional', 'location'])
    api.post('/appointments', async (request, reply) => {
      const body = request.body as Record<string, unknown> | null
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return await bad(reply, 'a JSON object')
      for (const k of Object.keys(body)) if (!BODY.has(k)) return await bad(reply, `unknown field "${k}"`)
      const { date, hour, client, professional, location } = body
      if (typeof date !== 'string' || !DATE.test(date) || typeof hour !== 'string' || !/^([01]\d|2[0-3]):[0-5]\d$/.test(hour)) return await bad(reply, 'date and hour')
      if (date < localNow().slice(0, 10)) return await bad(reply, 'in the past')
      for (const [k, v] of [['client', client], ['professional', professional], ['location', location]] as const) {
        if (typeof v !== 'string' || !ID.test(v)) return await bad(reply, `${k}: an id`)
      }
      const l = await lookups()
      const [p, u] = [Number(professional), Number(location)]
      if (!l.enabledProfessionals.has(p) || !l.locations.has(u) || !l.unitsOfProfessional.get(p)?.has(u)) return await bad(reply, 'professional and location')
      const outcome = await store.book({ date, hour, client: Number(client), professional: p, unit: u, room: l.roomOfUnit.get(u)! })
      if (typeof outcome === 'string') return await reply.code(outcome === 'taken' ? 409 : 400).send({ title: outcome, status: outcome === 'taken' ? 409 : 400 })
      return appointment((await store.byId(outcome))!, l)
    })

    api.get('/professionals', async (request, reply) => {
      const q = closedQuery(request.query, ['service'])
      if (typeof q === 'string') return await bad(reply, q)
      const l = await lookups()
      if (q.service === undefined) return [...l.professionals.values()]
      return ID.test(q.service) ? l.professionalsByService.get(Number(q.service)) ?? [] : []
    })
  })

  return { app, statements: store.statements }
}
