// Which tables are the appointments, the clients and the lookups, from the schema's structure
// and data: the appointment table has a start (start.ts) and references to two or more tables;
// the client is the one it references that holds a person (names, phones, a birthday); the
// provider another holding names; lookups only tables the appointment or client references,
// their names labels that may carry digits and brackets.
import type { LiveCatalog, LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { findStart, type Start } from './start.js'
import { birthdayOf, contactRows, emailColumn, namesBelow, namesOf, namesThrough, phoneColumns } from './people.js'
import { qualified } from './tables.js'

export type Resource = 'appointment' | 'client' | 'professional' | 'location' | 'service' | 'healthInsurance' | 'specialty'

/** Table names, best first: a bonus where the structure already fits, and the only guide where there are no rows or references. */
export const TABLES: [Resource, RegExp][] = [
  ['appointment', /^(tb_?)?(agenda(mento)?s?|consultas?|appointments?|marcac(ao|oes)|atendimentos?|visits?|bookings?)$|agendament|appointment|consulta|calendar_?events?/i],
  ['client', /^(tb_?)?(pacientes?|patients?|clientes?|clients?)$|pacient|patient|client|demographic/i],
  ['professional', /^(tb_?)?(medicos?|doctors?|profissionais|profissional|professionals?|providers?|prestador(es)?)$|medico|doctor|profission|provider|clinician|physician|practitioner|healthprof|dentist|staff|^users?$/i],
  ['location', /^(tb_?)?(locais|local|unidades?|clinics?|locations?|filia(l|is)|sites?|facilit(y|ies))$|unidade|location|local|facilit|institution|room|sala/i],
  ['service', /^(tb_?)?(servicos?|services?|procedimentos?|treatments?|exames?)$|servic|procediment|treatment|kind|categor|appointment_?type|visit_?type/i],
  ['healthInsurance', /^(tb_?)?(convenios?|insurers?|insurances?|operadoras?|planos?_?saude)$|convenio|insur/i],
  ['specialty', /^(tb_?)?(especialidades?|specialt(y|ies))$|especialid|specialt|speciality/i]
]
export const named = (r: Resource, t: LiveTable): boolean => (TABLES.find(([x]) => x === r)?.[1] ?? /$^/).test(t.name)

/** A table the appointment row reaches by a reference, drafted as a join: its time slot, the slot's block. */
export interface Hop { alias: string, ref: Ref, from?: string }

export interface Choice {
  tables: Partial<Record<Resource, LiveTable>>
  start?: Start
  /** The tables the appointment's time and references are read through (OpenMRS: slot, then block). */
  hops: Hop[]
  /** Why each table was taken, for the draft's comment at it. */
  why: Partial<Record<Resource, string>>
  /** Tables the appointment names that hold names but fit no resource: said in the draft. */
  unplaced: Ref[]
}

const holdsNames = (t: LiveTable, refs: Ref[], samples: Samples): boolean => namesOf(t, samples) !== undefined || namesThrough(t, refs, samples) !== undefined ||
  namesBelow(t, refs, samples) !== undefined
/** Names of things, not only of people: a site's `Urgent Care (24h)`, a visit type's `Follow-up 15`. */
const holdsLabels = (t: LiveTable, refs: Ref[], samples: Samples): boolean => namesOf(t, samples, true) !== undefined || namesThrough(t, refs, samples, true) !== undefined

/** How much a table looks like a person's record kept by the clinic: names, phones, a birthday, contact rows. */
function personScore (t: LiveTable, refs: Ref[], samples: Samples): number {
  if (!holdsNames(t, refs, samples)) return -1
  const person = namesThrough(t, refs, samples)?.via.to ?? namesBelow(t, refs, samples)?.person
  const traits = [...new Set([t, ...person ? [person] : []])].reduce((n, p) => n + phoneColumns(p, samples).length + (birthdayOf(p, samples) ? 2 : 0) +
    (emailColumn(p, samples) ? 1 : 0) + (contactRows(p, refs, samples) ? 2 : 0), 0)
  // A provider, a place or a service holds names too, and is no client.
  return traits + (named('client', t) ? 5 : 0) - (TABLES.slice(2).some(([r]) => named(r, t)) ? 5 : 0)
}

/** The appointment's time in a row it points at (OpenMRS's time slot): that row's start, the row holding no names. */
function startVia (t: LiveTable, refs: Ref[], samples: Samples, today: string): { start: Start, via: Ref } | undefined {
  return refs.filter((r) => r.from === t && r.to !== t && !holdsNames(r.to, refs, samples))
    .flatMap((via) => { const start = findStart(via.to, samples, today); return start ? [{ start, via }] : [] })
    .sort((a, b) => b.start.score - a.start.score)[0]
}

/** The joins from the appointment: the row holding its time, then the rows that one points at (a slot's block), so their references are reached. */
function hopsFrom (apt: LiveTable, via: Ref | undefined, refs: Ref[]): Hop[] {
  if (!via) return []
  const hops: Hop[] = [{ alias: 'slot', ref: via }]
  for (const r of refs.filter((r) => r.from === via.to && r.to !== apt && r.to !== via.to)) {
    const alias = r.to.name.toLowerCase().split('_').filter((w) => /^[a-z]\w*$/.test(w)).at(-1) ?? 'hop'
    if (refs.some((x) => x.from === r.to && x.to !== via.to)) hops.push({ alias: hops.some((h) => h.alias === alias) ? `${alias}${hops.length}` : alias, ref: r, from: 'slot' })
  }
  return hops
}

/** A table named as a record of changes or a store of old rows: `histappointment`, `appointmentArchive`, `agenda_log`, `consultas_bak`. */
const COPY_NAME = /(hist|archiv|arquiv|audit|(^|_)log(s)?($|_)|backup|(_|^)bak$|_old$|deleted|excluid|trash|lixeira|shadow|snapshot)/i

/**
 * Whether `t` keeps copies of `u`'s rows (a history, an archive): most of the narrower one's
 * columns by name, and named as such a store, or naming `u`'s rows by a column. The clinic's
 * program works on `u`; the copies only record what it did. The one named as the copy is the
 * copy, whichever points at which (Open Dental's unused `NextAptNum` reads as `histappointment.AptNum`).
 */
function copyOf (t: LiveTable, u: LiveTable, refs: Ref[]): boolean {
  if (t === u || (COPY_NAME.test(u.name) && !COPY_NAME.test(t.name))) return false
  const mine = new Set([...t.columns.keys()])
  const theirs = [...u.columns.keys()]
  if (theirs.filter((c) => mine.has(c)).length < 0.8 * Math.min(theirs.length, mine.size)) return false
  return COPY_NAME.test(t.name) || refs.some((r) => r.from === t && r.to === u)
}

export function chooseByStructure (catalog: LiveCatalog, refs: Ref[], samples: Samples, today: string): Choice | undefined {
  const all = catalog.tables.flatMap((t) => {
    const targets = new Set(refs.filter((r) => r.from === t && r.to !== t).map((r) => r.to))
    if (targets.size < 2) return []
    // Its own start, or (a creation stamp at best) the start of the row it points at.
    const own = findStart(t, samples, today)
    const via = own === undefined || own.score <= 0 ? startVia(t, refs, samples, today) : undefined
    const start = via !== undefined && via.start.score - 1 > (own?.score ?? -Infinity) ? { ...via.start, via: via.via } : own
    if (!start) return []
    // Appointments link a client and a time: a table naming no person's record (a provider's block) is a schedule.
    const patient = [...targets].some((u) => personScore(u, refs, samples) >= 0)
    return [{ t, start, score: start.score + targets.size + (named('appointment', t) ? 10 : 0) + (patient ? 5 : 0) - (start.via ? 1 : 0) }]
  })
  // A history or an archive of another candidate is never the appointments; nor an empty table beside one with rows.
  const someRows = all.some((o) => (samples.rows(o.t) ?? 0) > 0)
  const options = all.filter((o) => !all.some((u) => copyOf(o.t, u.t, refs)))
    .map((o) => ({ ...o, score: o.score - (COPY_NAME.test(o.t.name) ? 8 : 0) - (someRows && samples.rows(o.t) === 0 ? 5 : 0) }))
    .sort((a, b) => b.score - a.score)
  const best = options[0]
  if (!best) return undefined
  const apt = best.t
  const hops = hopsFrom(apt, best.start.via, refs)
  const from = refs.filter((r) => r.from === apt)
  const hopped = new Set(hops.map((h) => h.ref.to))
  // What the appointment names, itself or through the rows it is joined to.
  const targets = [...new Set([...from, ...hops.flatMap((h) => refs.filter((r) => r.from === h.ref.to))].map((r) => r.to))].filter((u) => u !== apt && !hopped.has(u))
  const clients = targets.map((t) => ({ t, s: personScore(t, refs, samples) })).filter((x) => x.s >= 0).sort((a, b) => b.s - a.s)
  const client = clients[0]?.t
  const tables: Choice['tables'] = { appointment: apt }
  const why: Choice['why'] = {
    appointment: `a start (${best.start.via ? `${qualified(best.start.via.to)}.` : ''}${(best.start.datetime ?? best.start.date)?.name}) and references to ${targets.map(qualified).join(', ')}` +
      (options.length > 1 ? `; other candidates: ${options.slice(1).map((o) => qualified(o.t)).join(', ')}` : '')
  }
  if (client) {
    tables.client = client
    why.client = `referenced by the appointment (${from.filter((r) => r.to === client).map((r) => r.column.name).join(', ')}) and holding names` +
      (clients.length > 1 ? `; other candidates: ${clients.slice(1).map((x) => qualified(x.t)).join(', ')}` : '')
  }
  const rest = targets.filter((t) => t !== client && holdsLabels(t, refs, samples))
  // Unnamed, the provider is the table holding people's names: one of labels is a place or a service.
  const pro = rest.find((t) => named('professional', t)) ?? rest.find((t) => holdsNames(t, refs, samples) && !TABLES.slice(3).some(([r]) => named(r, t)))
  if (pro) {
    tables.professional = pro
    why.professional = named('professional', pro) ? 'referenced by the appointment, holding names' : 'referenced by the appointment, holding names, named like no other lookup: confirm it is the provider'
  }
  // Lookups: what the appointment names, then what the client names (an insurance) and the provider names (a specialty: the Delphi agenda's MEDICOS.CODESPEC).
  const named2 = (from: LiveTable | undefined): LiveTable[] => from === undefined ? [] : refs.filter((r) => r.from === from && r.to !== apt && r.to !== client && holdsLabels(r.to, refs, samples)).map((r) => r.to)
  const lookups = [...rest, ...named2(client), ...named2(pro)]
  const unplaced: Ref[] = []
  for (const t of new Set(lookups)) {
    if (t === pro || t === client) continue
    const r = TABLES.slice(3).find(([r]) => !tables[r] && named(r, t))?.[0]
    if (r) tables[r] = t
    else unplaced.push(...refs.filter((x) => x.to === t && (x.from === apt || x.from === client)).slice(0, 1))
  }
  return { tables, start: best.start, hops, why, unplaced }
}
