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
import { createHash } from 'node:crypto'
import Database from 'better-sqlite3'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { keyFinder, presentedKey } from '../src/plugins/auth.js'
import { loggerOptions } from '../src/logging.js'
import { parsePhoneInput, phoneProbes, samePhone, toE164, PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS } from '../src/normalise/phone.js'
import { normaliseCpf } from '../src/normalise/cpf.js'

type Row = Record<string, any>
type Obj = Record<string, unknown>

const TTL_MS = 300_000
const STATES: Record<string, string> = { X: 'CANCELED', F: 'MISSED', R: 'DONE' }
const KINDS: Record<string, string> = { C: 'Consulta', R: 'Retorno', P: 'Primeira vez', U: 'Urgência', E: 'Encaixe' }
const PHONE_OPTS = { defaultCountry: 'BR', defaultAreaCode: '11' }

const APPOINTMENT_SQL = `
  SELECT a.ID_AGENDA, a.DATA, a.HORA, a.DURACAO, a.SITUACAO, a.CONFIRMADO, a.TIPO_ATEND,
         a.FL_HIGIENE, a.ID_HIGIENISTA, a.ID_PROFISSIONAL, a.ID_PROCEDIMENTO, a.ID_CONVENIO,
         s.ID_UNIDADE, p.ID_ESPECIALIDADE,
         c.ID_PACIENTE, c.NOME, c.NOME_SOCIAL, c.OBS, c.EMAIL, c.PRONTUARIO, c.CPF, c.DT_NASC,
         c.CELULAR, c.FONE_RES, c.FONE_COM
  FROM AGENDA a
  LEFT JOIN SALA s ON s.ID_SALA = a.ID_SALA
  LEFT JOIN PROCEDIMENTO p ON p.ID_PROCEDIMENTO = a.ID_PROCEDIMENTO
  LEFT JOIN PACIENTE c ON c.ID_PACIENTE = a.ID_PACIENTE AND c.TIPO = 'P' AND c.DT_EXCLUSAO IS NULL
  WHERE a.EXCLUIDO <> 'S'`
const ORDER = ' ORDER BY a.DATA, a.HORA, a.ID_AGENDA'
// The phone search as one statement would best do it on this schema with the indexes
// `ponte check` recommends (the grower creates them: bench/grow.ts): the stored spellings of
// the number (phoneProbes, a pure function of it) looked up in each phone column — whole
// values by equality, values with something after the number (an extension) as a prefix
// range — each list joined from VALUES to the column's index, so each column is one index
// loop (on 1,000,000 clients 38 µs of CPU a statement, against 186 µs for `IN (…)` plus an OR
// of ranges, which SQLite runs as a MULTI-INDEX OR). A fixed number of placeholders (a number
// with fewer spellings repeats its first one), prepared once. `+ID_PACIENTE`: order the few
// rows found, or SQLite walks the key to fill the LIMIT and reads the table.
const exactValues = Array.from({ length: PHONE_EXACT_SLOTS }, (_, i) => `(@e${i})`).join(', ')
const prefixValues = Array.from({ length: PHONE_PREFIX_SLOTS }, (_, i) => `(@l${i}, @h${i})`).join(', ')
const probed = (col: string): string => `${col} IN (
    SELECT q.${col} FROM (VALUES ${exactValues}) r JOIN PACIENTE q ON q.${col} = r.column1
    UNION ALL SELECT q.${col} FROM (VALUES ${prefixValues}) r JOIN PACIENTE q ON q.${col} >= r.column1 AND q.${col} < r.column2)`
const CLIENT_SQL = `
  SELECT ID_PACIENTE, NOME, NOME_SOCIAL, OBS, EMAIL, PRONTUARIO, CPF, DT_NASC, CELULAR, FONE_RES, FONE_COM
  FROM PACIENTE
  WHERE TIPO = 'P' AND DT_EXCLUSAO IS NULL
    AND (${probed('CELULAR')} OR ${probed('FONE_RES')} OR ${probed('FONE_COM')})
  ORDER BY +ID_PACIENTE LIMIT 1000`
/** The statement's parameters for a number: its spellings, each slot list filled by repeating the first. */
const probeParams = (e164: string): Record<string, string> => {
  const { exact, prefixes } = phoneProbes(e164, PHONE_OPTS)
  const out: Record<string, string> = {}
  for (let i = 0; i < PHONE_EXACT_SLOTS; i++) out[`e${i}`] = exact[i] ?? exact[0]!
  for (let i = 0; i < PHONE_PREFIX_SLOTS; i++) {
    const p = prefixes[i] ?? prefixes[0] ?? exact[0]!
    out[`l${i}`] = p
    out[`h${i}`] = p.slice(0, -1) + String.fromCodePoint(p.codePointAt(p.length - 1)! + 1)
  }
  return out
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
const minutes = (h: string): number => { const [a, b] = h.trim().split(':'); return Number(a) * 60 + Number(b) }
const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
/** Wall-clock now in the clinic's zone, 'YYYY-MM-DD HH:MM:SS', as the legacy columns hold it. */
const CLINIC_CLOCK = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
const localNow = (): string => CLINIC_CLOCK.format(new Date())
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

function loadLookups (db: Database.Database): Lookups {
  const all = (sql: string): Row[] => db.prepare(sql).all() as Row[]
  const byId = (rows: Row[], read: (r: Row) => Obj): Map<number, Obj> => new Map(rows.map((r) => [Number(r.ID), read(r)]))
  const specialties = byId(all('SELECT ID_ESPECIALIDADE ID, DESCRICAO, CBO FROM ESPECIALIDADE ORDER BY 1'),
    (r) => compact({ id: String(r.ID), name: text(r.DESCRICAO) ?? '', cbo: text(r.CBO) }))
  const profSpecialties = new Map<number, Obj[]>()
  for (const r of all('SELECT ID_PROFISSIONAL, ID_ESPECIALIDADE FROM PROF_ESPECIALIDADE')) {
    const s = specialties.get(r.ID_ESPECIALIDADE)
    if (s) profSpecialties.set(r.ID_PROFISSIONAL, [...(profSpecialties.get(r.ID_PROFISSIONAL) ?? []), s])
  }
  const professionals = byId(all('SELECT ID_PROFISSIONAL ID, * FROM PROFISSIONAL ORDER BY 1'), (r) => compact({
    id: String(r.ID),
    name: text(r.NOME) ?? '',
    description: text(r.CURRICULO),
    image: text(r.FOTO_URL),
    expertise: text(r.TITULO),
    register: joinParts([['', r.CONSELHO], [' ', r.NR_CONSELHO], ['/', r.UF_CONSELHO]]),
    specialties: (profSpecialties.get(r.ID) ?? []).sort((a, b) => String(a.name).localeCompare(String(b.name)))
  }))
  const locations = byId(all('SELECT ID_UNIDADE ID, * FROM UNIDADE ORDER BY 1'), (r) => {
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
  const services = byId(all('SELECT ID_PROCEDIMENTO ID, * FROM PROCEDIMENTO ORDER BY 1'), (r) => compact({
    id: String(r.ID),
    name: text(r.DESCRICAO) ?? '',
    price: num(r.VALOR),
    duration: r.DURACAO_MIN > 0 ? r.DURACAO_MIN : undefined,
    description: text(r.OBS),
    preparation: text(r.PREPARO)
  }))
  const insurances = byId(all('SELECT ID_CONVENIO ID, NOME, COR FROM CONVENIO ORDER BY 1'),
    (r) => compact({ id: String(r.ID), name: text(r.NOME) ?? '', color: text(r.COR) }))
  const professionalsByService = new Map<number, Obj[]>()
  for (const r of all('SELECT ID_PROCEDIMENTO, ID_PROFISSIONAL FROM PROF_PROCEDIMENTO ORDER BY ID_PROCEDIMENTO, ID_PROFISSIONAL')) {
    const p = professionals.get(r.ID_PROFISSIONAL)
    if (p) professionalsByService.set(r.ID_PROCEDIMENTO, [...(professionalsByService.get(r.ID_PROCEDIMENTO) ?? []), p])
  }
  const roomOfUnit = new Map<number, number>()
  for (const r of all('SELECT ID_UNIDADE, MIN(ID_SALA) ID_SALA FROM SALA GROUP BY ID_UNIDADE')) roomOfUnit.set(r.ID_UNIDADE, r.ID_SALA)
  const unitsOfProfessional = new Map<number, Set<number>>()
  for (const r of all('SELECT ID_PROFISSIONAL, ID_UNIDADE FROM PROF_UNIDADE')) unitsOfProfessional.set(r.ID_PROFISSIONAL, (unitsOfProfessional.get(r.ID_PROFISSIONAL) ?? new Set()).add(r.ID_UNIDADE))
  const enabledProfessionals = new Set(all("SELECT ID_PROFISSIONAL FROM PROFISSIONAL WHERE INATIVO <> 'S'").map((r) => r.ID_PROFISSIONAL as number))
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

export async function buildHandWritten (file: string, options: HandWrittenOptions): Promise<{ app: FastifyInstance, statements: () => number }> {
  const db = new Database(file, { fileMustExist: true })
  let statements = 0
  let cache = loadLookups(db)
  const lookups = (): Lookups => Date.now() - cache.loadedAt > TTL_MS ? (cache = loadLookups(db)) : cache

  // Parameters written `+?`, as Ponte's SQLite dialect writes them: a bare one meeting an
  // indexed column makes SQLite (STAT4 samples, which the grower's ANALYZE leaves) plan the
  // statement again at each run; on by-id that was a third of this baseline's CPU a request.
  const byRange = db.prepare(`${APPOINTMENT_SQL} AND a.DATA >= +? AND a.DATA <= +?${ORDER}`)
  const byRangeProf = db.prepare(`${APPOINTMENT_SQL} AND a.DATA >= +? AND a.DATA <= +?
    AND CASE WHEN a.FL_HIGIENE = 'S' THEN a.ID_HIGIENISTA ELSE a.ID_PROFISSIONAL END = +?${ORDER}`)
  const minimalRange = db.prepare(`SELECT a.ID_AGENDA, a.DATA, a.HORA, a.DURACAO, a.SITUACAO, a.CONFIRMADO, a.TIPO_ATEND
    FROM AGENDA a WHERE a.EXCLUIDO <> 'S' AND a.DATA >= +? AND a.DATA <= +?${ORDER}`)
  const byId = db.prepare(`${APPOINTMENT_SQL} AND a.ID_AGENDA = +?`)
  const searchPhone = db.prepare(CLIENT_SQL)
  const clientExists = db.prepare("SELECT 1 FROM PACIENTE WHERE ID_PACIENTE = +? AND TIPO = 'P' AND DT_EXCLUSAO IS NULL")
  const hoursThatDay = db.prepare(`SELECT ID_UNIDADE, HORA_INICIO, HORA_FIM, INTERVALO FROM HORARIO
    WHERE ID_PROFISSIONAL = +@professional AND DIA_SEMANA = +@weekday AND VIGENCIA_INI <= +@date AND (VIGENCIA_FIM IS NULL OR VIGENCIA_FIM >= +@date)`)
  const blockOver = db.prepare(`SELECT 1 FROM BLOQUEIO WHERE (ID_PROFISSIONAL IS NULL OR ID_PROFISSIONAL = +@professional)
    AND DT_INICIO <= +@date AND DT_FIM >= +@date AND (HORA_INICIO IS NULL OR (HORA_INICIO < +@end AND HORA_FIM > +@hour)) LIMIT 1`)
  const sameDay = db.prepare(`SELECT HORA, DURACAO FROM AGENDA WHERE DATA = +@date AND EXCLUIDO <> 'S' AND SITUACAO <> 'X'
      AND (CASE WHEN FL_HIGIENE = 'S' THEN ID_HIGIENISTA ELSE ID_PROFISSIONAL END = +@professional OR ID_PACIENTE = +@client)`)
  const bumpKey = db.prepare("UPDATE SEQUENCIAL SET ULTIMO = ULTIMO + 1 WHERE TABELA = 'AGENDA' RETURNING ULTIMO")
  const insertAppointment = db.prepare(`INSERT INTO AGENDA (ID_AGENDA, DATA, HORA, DURACAO, ID_PACIENTE, ID_PROFISSIONAL, ID_PROCEDIMENTO,
      ID_CONVENIO, PLANO, ID_SALA, FL_HIGIENE, TIPO_ATEND, EXCLUIDO, DT_CADASTRO, USUARIO, SITUACAO, CONFIRMADO, DT_ALTERACAO, USUARIO_ALT)
    VALUES (@id, @date, @hour, @minutes, @client, @professional, NULL, NULL, NULL, @room, 'N', 'C', 'N', @now, 'PONTE', 'A', 'N', @now, 'PONTE')`)
  const run = (st: Database.Statement, args: unknown): Row | undefined => { statements++; return st.get(args) as Row | undefined }
  const rows = (st: Database.Statement, args: unknown): Row[] => { statements++; return st.all(args) as Row[] }
  // Check and write in one synchronous transaction: nothing else runs on this connection meanwhile.
  const book = db.transaction((b: { date: string, hour: string, client: number, professional: number, unit: number, room: number }): number | string => {
    if (!run(clientExists, [b.client])) return 'no such client'
    const start = minutes(b.hour)
    const window = rows(hoursThatDay, { professional: b.professional, weekday: new Date(`${b.date}T00:00:00Z`).getUTCDay() + 1, date: b.date })
      .find((h) => h.ID_UNIDADE === b.unit && minutes(h.HORA_INICIO) <= start && start + h.INTERVALO <= minutes(h.HORA_FIM) && (start - minutes(h.HORA_INICIO)) % h.INTERVALO === 0)
    if (!window) return 'outside the professional\'s hours'
    const end = start + (window.INTERVALO as number)
    if (run(blockOver, { professional: b.professional, date: b.date, hour: b.hour, end: hhmm(end) })) return 'blocked'
    for (const a of rows(sameDay, { date: b.date, professional: b.professional, client: b.client })) {
      const s = minutes(a.HORA)
      const e = s + (a.DURACAO > 0 ? a.DURACAO : window.INTERVALO)
      if (s < end && start < e) return 'taken'
    }
    const id = (run(bumpKey, []) as Row).ULTIMO as number
    statements++
    insertAppointment.run({ id, date: b.date, hour: b.hour, minutes: end - start, client: b.client, professional: b.professional, room: b.room, now: localNow() })
    return id
  })
  const all = (st: Database.Statement, ...args: unknown[]): Row[] => { statements++; return st.all(...args) as Row[] }

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
  const appointments = (rows: Row[]): Obj[] => { const l = lookups(); return rows.map((r) => appointment(r, l)).sort(byDateHour) }

  const app = Fastify({
    logger: options.logLevel === false ? false : { ...loggerOptions(options.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) }
  })
  app.addHook('onClose', async () => { db.close() })
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
      if (q.minimal === 'true' && professional === undefined) return all(minimalRange, start, end).map(minimal).sort(byDateHour)
      if (professional === undefined) return appointments(all(byRange, start, end))
      if (!ID.test(professional)) return []
      return appointments(all(byRangeProf, start, end, Number(professional)))
    })

    api.get<{ Params: { id: string } }>('/appointments/:id', async (request, reply) => {
      const q = closedQuery(request.query, [])
      if (typeof q === 'string') return await bad(reply, q)
      const row = ID.test(request.params.id) ? all(byId, Number(request.params.id))[0] : undefined
      if (!row) return await reply.code(404).send({ title: 'Not found', status: 404 })
      return appointment(row, lookups())
    })

    api.get('/clients/search', async (request, reply) => {
      const q = closedQuery(request.query, ['term'])
      if (typeof q === 'string') return await bad(reply, q)
      const phone = parsePhoneInput(q.term ?? '', PHONE_OPTS)
      if (phone === undefined) return await bad(reply, 'term: a phone')
      const rows = all(searchPhone, probeParams(phone))
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
      const l = lookups()
      const [p, u] = [Number(professional), Number(location)]
      if (!l.enabledProfessionals.has(p) || !l.locations.has(u) || !l.unitsOfProfessional.get(p)?.has(u)) return await bad(reply, 'professional and location')
      const outcome = book({ date, hour, client: Number(client), professional: p, unit: u, room: l.roomOfUnit.get(u)! })
      if (typeof outcome === 'string') return await reply.code(outcome === 'taken' ? 409 : 400).send({ title: outcome, status: outcome === 'taken' ? 409 : 400 })
      return appointment(all(byId, outcome)[0]!, l)
    })

    api.get('/professionals', async (request, reply) => {
      const q = closedQuery(request.query, ['service'])
      if (typeof q === 'string') return await bad(reply, q)
      const l = lookups()
      if (q.service === undefined) return [...l.professionals.values()]
      return ID.test(q.service) ? l.professionalsByService.get(Number(q.service)) ?? [] : []
    })
  })

  return { app, statements: () => statements }
}
