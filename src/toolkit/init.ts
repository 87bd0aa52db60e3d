// `ponte init`: a draft mapping from a live database's catalog. Tables and columns are
// guessed by name (Portuguese and English habits of legacy clinic systems) and type; every
// guess carries a comment, and what could not be guessed is left as a TODO, so the draft
// validates and `ponte check` shows what is left to do.
import { dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { soleZone, zoneCountries } from '../normalise/zone-country.js'
import { utcHours } from './init/utc-hours.js'
import { nonTransactional, type LiveCatalog, type LiveColumn, type LiveTable } from '../db/columns.js'
import type { Database } from '../db/database.js'
import { chooseByStructure, named, TABLES, type Hop, type Resource } from './init/choose.js'
import { NAME, birthdayOf, contactRows, cpfRows, namesBelow, cpfColumn, emailColumn, namesOf, namesThrough, phoneColumns, type ContactRows, type Names } from './init/people.js'
import { phoneHome, type PhoneHome } from './init/phones.js'
import { isPhoneMask } from '../normalise/phone.js'
import { findRefs, type Ref } from './init/refs.js'
import { NO_SAMPLES, type Samples } from './init/sample.js'
import { findStart, type Start } from './init/start.js'
import { durationUnit, stateColumn } from './init/status.js'
import { columns, ident, qualified, soleKey } from './init/tables.js'
import { asText, defaultValue as literal, phoneValue, share } from './init/values.js'
import { codeLabels } from './init/code-labels.js'
import { fills } from './init/fills.js'
import { clientsRows } from './init/own-rows.js'
import { nameRefs, type NameRef } from './init/named-refs.js'
import { weeklyYaml } from './init/weekly.js'
import { aheadByCode, noneDefault, undated } from './init/appointment-rows.js'
import { codeEvidence } from './init/code-evidence.js'
import { blocksYaml } from './init/blocks.js'
import { clientless, type Clientless } from './init/clientless.js'
import { readCode, stateDraft } from './init/state-map.js'

/** The installed mapping.schema.json: the package root is two folders up from src/toolkit/ and dist/toolkit/ alike. */
export const SCHEMA_FILE = new URL('../../mapping.schema.json', import.meta.url)

/**
 * The draft's `$schema` link for editors: relative to the folder the draft is written to, so it
 * resolves there (the YAML language server reads a relative link from the file's own folder);
 * a printed draft may be saved anywhere, so it gets the schema's absolute file URL, as does a
 * relative link with a space (the modeline ends at the first one).
 */
export function schemaLink (out?: string): string {
  if (out === undefined) return SCHEMA_FILE.href
  const link = relative(dirname(resolve(out)), fileURLToPath(SCHEMA_FILE)).split(sep).join('/')
  if (/\s/.test(link)) return SCHEMA_FILE.href
  return link.startsWith('.') ? link : `./${link}`
}

/** A column of the appointment row that holds the id of each other resource, by name: where no rows show the references. */
const REFS: Record<Exclude<Resource, 'appointment'>, RegExp> = {
  client: /^(id_?|cod_?)?(pac(iente)?|patient|cli(ente)?|client)(_?id|_?cod)?$/i,
  professional: /^(id_?|cod_?)?(med(ico)?|doctor|prof(issional)?|prestador|provider)(_?id|_?ref|_?cod)?$/i,
  location: /^(id_?|cod_?)?(local|unid(ade)?|clinic|sala|site|location)(_?id|_?cod)?$/i,
  service: /^(id_?|cod_?)?(serv(ico)?|proc(edimento)?|treatment|exame|service)(_?id|_?cod)?$/i,
  healthInsurance: /^(id_?|cod_?)?(conv(enio)?|insurer|insurance|plano)(_?id|_?cod)?$/i,
  specialty: /^(id_?|cod_?)?(esp(ecialidade)?|specialty)(_?id|_?cod)?$/i
}

const FIELDS: Record<string, RegExp> = {
  description: /^(obs(ervac(ao|oes))?|notes?|bio|descr(icao)?|description)$/i,
  address: /(ender|address|logradouro|street|^rua$)/i,
  city: /^(cidade|city|munic(ipio)?)$/i,
  state: /^(uf|estado|state)$/i,
  cep: /^(cep|postal_?code|zip(_?code)?)$/i,
  price: /(preco|valor|price)/i,
  duration: /(durac|duration|tempo|minutos)/i
}

export interface Draft { yaml: string, tables: Partial<Record<Resource, string>> }

/**
 * Stored values of a column with their counts (codes, not patient data), most frequent first;
 * with `noClient`, only over the rows naming no client (NULL, blank, or 0 where no client's key is 0).
 */
export type ReadCodes = (table: string, column: string, noClient?: LiveColumn) => Promise<{ code: string, n: number }[]>

/** The 50 most frequent stored values of a column, read through the database's own dialect. */
export function storedCodes (db: Database): ReadCodes {
  return async (table, column, noClient) => {
    const d = db.dialect
    const col = d.column('t', column)
    const none = noClient === undefined ? [] : [clientMissing(d, d.column('t', noClient.name), noClient.kind === 'number')]
    const sql = d.select({
      columns: [{ expr: col, alias: 'code' }, { expr: d.count(), alias: 'n' }],
      from: { table: d.table(table), alias: 't' },
      joins: [],
      where: [d.isNotNull(col), ...none],
      groupBy: [col],
      orderBy: [d.descending(d.count())]
    })
    const rows = await db.query({ name: 'init.codes', sql, params: [] })
    return rows.slice(0, 50).map((r) => ({ code: String(r.code), n: Number(r.n) }))
  }
}

/** No client named: NULL, or 0, or (text) blank or '0'. Constants of the SQL only, no input. */
function clientMissing (d: Database['dialect'], col: string, numeric: boolean): string {
  return d.or([d.isNull(col), numeric ? `${col} = 0` : `${d.trim(col)} = ''`, ...numeric ? [] : [`${d.trim(col)} = '0'`]])
}

/**
 * `link`: where the draft's editors find the schema (`schemaLink`); `samples`: rows read from each
 * table (none: names and types alone); `today`: what "ahead" means when telling a start from a stamp.
 */
export async function draftMapping (catalog: LiveCatalog, installation: string, readCodes?: ReadCodes, link = schemaLink(),
  samples: Samples = NO_SAMPLES, today = new Date().toISOString().slice(0, 10), localZone = Intl.DateTimeFormat().resolvedOptions().timeZone): Promise<Draft> {
  const refs = findRefs(catalog, samples)
  const structure = chooseByStructure(catalog, refs, samples, today)
  const chosen: Partial<Record<Resource, LiveTable>> = { ...structure?.tables }
  const taken = new Set<LiveTable>(Object.values(chosen))
  // No table with a start and two references: by name, as before, then by the old shapes.
  if (!structure) {
    for (const [resource, pattern] of TABLES) {
      const candidates = catalog.tables.filter((t) => !taken.has(t) && pattern.test(t.name))
        .sort((a, b) => score(b, resource) - score(a, resource))
      if (candidates[0]) { chosen[resource] = candidates[0]; taken.add(candidates[0]) }
    }
  }
  const out: string[] = [
    `# yaml-language-server: $schema=${link}`,
    '# Draft written by `ponte init` from the database catalog and a sample of its rows. Every "guess"',
    '# comment marks a choice made from names, types or values: confirm or correct it, then run `ponte check`.',
    'version: 1',
    `installation: ${installation}`
  ]
  const resourcesAt = out.length
  out.push('resources:')
  const shaped = (r: 'appointment' | 'client'): LiveTable[] => catalog.tables.filter((t) => !taken.has(t) && (r === 'appointment' ? appointmentShaped(t) : clientShaped(t, chosen.appointment)))
    .sort((a, b) => score(b, r) - score(a, r))
  const candidates: Partial<Record<'appointment' | 'client', LiveTable[]>> = {}
  for (const r of ['appointment', 'client'] as const) {
    if (chosen[r]) continue
    candidates[r] = shaped(r)
    const best = candidates[r]?.[0]
    if (best) { chosen[r] = best; taken.add(best) }
  }
  // A lookup whose rows each belong to a client (memberships) lists no insurers, services or places.
  const owned: string[] = []
  for (const r of ['location', 'service', 'healthInsurance', 'specialty'] as const) {
    const t = chosen[r]
    const by = t && chosen.client ? clientsRows(t, chosen.client, namesThrough(chosen.client, refs, samples)?.via, refs, samples) : undefined
    if (t === undefined || by === undefined) continue
    delete chosen[r]
    owned.push(`  # TODO ${r}: \`${qualified(t)}\` holds one row per client (its ${by.column.name} names the client's own ${qualified(by.to)} row): the clients' own records, not a list of them; ` +
      'the list is what another of its columns names (docs/mapping.md)')
  }
  // Lookups the appointment names by their names (OSCAR's site and visit type).
  const byName = chosen.appointment ? nameRefs(chosen.appointment, catalog.tables, refs, samples, chosen, []) : []
  for (const n of byName) chosen[n.resource] = n.table
  const ctx: Context = { catalog, refs, samples, today, chosen, byName, localZone }
  const apt = chosen.appointment
  const cli = chosen.client
  for (const r of ['appointment', 'client'] as const) {
    const why = structure?.why[r]
    if (why && chosen[r] && !named(r, chosen[r])) out.push(`  # TODO ${r}: no table is named like one; \`${qualified(chosen[r])}\` is shaped like one (${why}): confirm`)
    else if (why) out.push(`  # ${r} ← ${qualified(chosen[r] as LiveTable)}: ${why}`)
    else out.push(...shapeNote(r, chosen[r], candidates[r], r === 'appointment' ? 'a date or timestamp and two columns naming other rows (…_id)' : 'a name or phone column, named by the appointment\'s rows'))
    if (r === 'appointment') out.push(...apt ? await appointmentYaml(apt, ctx, structure?.start, readCodes, structure?.hops) : placeholder('appointment'))
    else out.push(...cli ? clientYaml(cli, catalog, ctx) : placeholder('client'))
  }
  for (const r of ['professional', 'location', 'service', 'healthInsurance', 'specialty'] as const) {
    const t = chosen[r]
    const mine = owned.filter((o) => o.startsWith(`  # TODO ${r}:`))
    if (t) out.push(...structure?.why[r] ? [`  # ${r}: ${structure.why[r]}`] : [], ...lookupYaml(r, t, ctx))
    else out.push(...mine.length > 0 ? mine : [`  # ${r}: no table recognised (TODO, or leave it out)`])
  }
  for (const ref of structure?.unplaced ?? []) {
    out.push(`  # TODO: \`${qualified(ref.to)}\` is referenced by \`${qualified(ref.from)}.${ref.column.name}\` and holds names: a lookup? (see docs/mapping.md)`)
  }
  out.splice(resourcesAt, 0, ...homeYaml(ctx.home, ctx.localZone), ...utcYaml(ctx.stampedUtc) ?? clockYaml(ctx), ...ctx.states ? [ctx.states] : [])
  out.push('# relations: none guessed (TODO: link tables, see docs/mapping.md)')
  const hours = catalog.tables.filter((t) => !taken.has(t) && !Object.values(chosen).includes(t) && find(t, WEEKDAY) !== undefined)
  // Working hours drafted where the appointments' weekdays say how the table counts them.
  const start = structure?.start
  const at = start?.via ? undefined : start?.datetime ?? start?.date
  const pro = apt && chosen.professional ? refs.find((r) => r.from === apt && r.to === chosen.professional) : undefined
  const weekly = apt && at && pro && chosen.professional ? weeklyYaml(hours, refs, samples, { appointment: apt, professional: pro.column, start: at, professionals: chosen.professional, locations: chosen.location }) : []
  out.push(...weekly, ...weekly.length > 0 && !weekly[0].startsWith('#') ? blocksYaml(catalog.tables.filter((t) => !Object.values(chosen).includes(t)), refs, samples, chosen.professional, chosen.location) : [])
  for (const t of weekly.length > 0 ? [] : hours) {
    out.push(`# TODO availability.weekly: \`${qualified(t)}\` looks like working hours by weekday (${columns(t).map((c) => c.name).join(', ')}); ` +
      'see `availability` in docs/mapping.md, and say how its weekday counts (`weekdayBase: 0`, `1` or `iso`)')
  }
  out.push('')
  return { yaml: out.join('\n'), tables: Object.fromEntries(Object.entries(chosen).map(([k, t]) => [k, qualified(t)])) }
}

/**
 * The `phone` settings the client's sampled phones show, each said as the guess it is; when their
 * shapes fit no country or two alike, a TODO (the mapping's default, Brazil, stands until then).
 * Outside Brazil the default `timezone` (America/Sao_Paulo) is wrong too: a TODO asks for it.
 */
function homeYaml (home: PhoneHome | undefined, localZone: string): string[] {
  if (home === undefined) return []
  if (home.country === undefined) return [`# TODO phone.defaultCountry: ${home.seen}: not sure of the country; say the clinic's (docs/mapping.md). Until then Brazil, the default, is assumed`]
  const zone = homeZone(home.country, localZone)
  return [`phone: { defaultCountry: ${home.country} }   # guess: ${home.seen}`,
    ...home.areaCode === undefined
      ? []
      : [`# TODO phone.defaultAreaCode: ${home.areaCode.short} stored number${home.areaCode.short === 1 ? ' has' : 's have'} no area code and ${home.areaCode.short === 1 ? 'is' : 'are'} read as none; ` +
      `an area code given here would complete ${home.areaCode.short === 1 ? 'it' : 'them all'} (the most frequent is ${home.areaCode.top}), calling a patient who may live elsewhere: give it only if the clinic's program dials them so`],
    ...zone === undefined
      ? [`# TODO timezone: the clinic's IANA zone in ${home.country}: the default, America/Sao_Paulo, is Brazil's, and \`ponte check\` fails until it is given`]
      : zone.zone === 'America/Sao_Paulo'
        ? []
        : [`timezone: ${zone.zone}   # guess: ${zone.why}`]]
}

/**
 * The clinic's zone as the draft guesses it: the one zone the phones' country keeps, else the
 * zone of the machine `init` runs on when that country keeps it (clinic IT runs it on site),
 * else Brazil's default for Brazil; none where nothing tells.
 */
function homeZone (country: string, localZone: string): { zone: string, why: string } | undefined {
  const local = zoneCountries(localZone).includes(country)
  const sole = soleZone(country)
  if (sole !== undefined) return { zone: sole, why: `the phones are of ${country}, which keeps this zone only` }
  if (local) return { zone: localZone, why: `the zone of the machine init ran on, in ${country} as the phones are` }
  return country === 'BR' ? { zone: 'America/Sao_Paulo', why: 'the default' } : undefined
}

/** Tryton's and Odoo's rows (`create_date`, `write_date`, `create_uid`, `write_uid`) keep naive UTC, as the ORM writes every timestamp. */
function utcYaml (t: LiveTable | undefined): string[] | undefined {
  if (t === undefined) return undefined
  return [`storedIn: UTC   # guess: \`${qualified(t)}\` has ${TRYTON_STAMPS.filter((n) => t.columns.has(n)).join(', ')}, as Tryton (GNU Health) and Odoo keep rows, whose ORM writes naive UTC (docs/mapping.md#date-times-stored-in-utc)`]
}
const TRYTON_STAMPS = ['create_uid', 'write_uid', 'create_date', 'write_date']

/** Other shapes: a TODO when the sampled starts sit at night in the drafted zone but in the day read as UTC. */
function clockYaml (ctx: Context): string[] {
  const zone = ctx.home?.country === undefined ? 'America/Sao_Paulo' : homeZone(ctx.home.country, ctx.localZone)?.zone
  const seen = zone === undefined || ctx.starts === undefined ? undefined : utcHours(ctx.starts.values, zone)
  if (seen === undefined || zone === undefined || ctx.starts === undefined) return []
  return [`# TODO storedIn: ${seen.night} of ${seen.sampled} sampled starts (${ctx.starts.column}) are between 22:00 and 06:00 as stored, and in the day read as UTC in ${zone}: ` +
    'if the clinic\'s program stores UTC, add `storedIn: UTC` here (docs/mapping.md#date-times-stored-in-utc)']
}

/** What every part of the draft reads: the references found, the sampled rows, today, the tables chosen. */
interface Context { catalog: LiveCatalog, refs: Ref[], samples: Samples, today: string, chosen: Partial<Record<Resource, LiveTable>>, home?: PhoneHome, stampedUtc?: LiveTable, starts?: { column: string, values: unknown[] }, states?: string, byName?: NameRef[], localZone: string }

/** A column naming a row of another table by its key: `person_id`, `id_medico`, `cod_paciente`. */
const REF_LIKE = /^(id|cod)_\w+$|^\w+_(id|cod)$/i
const WEEKDAY = /^(weekday|week_?day|dia_?semana|dia_?da_?semana|dow|day_?of_?week)$/i

const refColumns = (t: LiveTable): LiveColumn[] => columns(t).filter((c) => REF_LIKE.test(c.name) && !(c.key && columns(t).filter((k) => k.key).length === 1))

function appointmentShaped (t: LiveTable): boolean {
  return columns(t).some((c) => c.kind === 'date') && refColumns(t).length >= 2
}

/** Named by the appointment's rows (`person_id` → `person`), or holding a name or a phone. */
function clientShaped (t: LiveTable, appointment: LiveTable | undefined): boolean {
  const named = appointment !== undefined && refColumns(appointment).some((c) => refersTo(c, t))
  const holds = columns(t).some((c) => NAME.test(c.name) || /^(first_?name|given_?name|nome)$/i.test(c.name) || PHONE_NAME.test(c.name))
  return holds && (named || appointment === undefined)
}

/** Whether a ref-like column names rows of `t`: `person_id` of `person`, `id_medico` of `medico(s)`. */
function refersTo (c: LiveColumn, t: LiveTable): boolean {
  const stem = c.name.toLowerCase().replace(/^(id|cod)_|_(id|cod)$/g, '')
  const name = t.name.toLowerCase().replace(/^tb_?/, '')
  const keys = columns(t).filter((k) => k.key)
  return stem === name || `${stem}s` === name || (keys.length === 1 && keys[0].name.toLowerCase() === c.name.toLowerCase())
}

/** What init says about a resource found by its shape, not its name (nothing when named). */
function shapeNote (r: string, chosen: LiveTable | undefined, candidates: LiveTable[] | undefined, shape: string): string[] {
  if (candidates === undefined) return []
  if (!chosen) return [`  # TODO ${r}: no table is named or shaped like one (${shape}): fill in the table below`]
  const others = candidates.filter((t) => t !== chosen).map(qualified)
  return [`  # TODO ${r}: no table is named like one; \`${qualified(chosen)}\` is shaped like one (${shape})${others.length > 0 ? `; other candidates: ${others.join(', ')}` : ''}: confirm`]
}

/** A resource nothing fits: placeholders that validate, for `ponte check` to list. */
function placeholder (r: 'appointment' | 'client'): string[] {
  const R = r.toUpperCase()
  return r === 'appointment'
    ? ['  appointment:', `    table: TODO_${R}_TABLE   # TODO`, '    key: TODO_KEY_COLUMN   # TODO', '    start:', '      date: { column: TODO_DATE_COLUMN, format: date }   # TODO',
        '      hour: { column: TODO_HOUR_COLUMN, format: text }   # TODO', '    state: { value: WAITING }   # TODO: no status column recognised']
    : ['  client:', `    table: TODO_${R}_TABLE   # TODO`, '    key: TODO_KEY_COLUMN   # TODO', '    fields:', '      name: TODO_NAME_COLUMN   # TODO']
}

function score (t: LiveTable, r: Resource): number {
  const cols = [...t.columns.values()]
  if (r === 'appointment') return cols.filter((c) => c.kind === 'date').length * 2 + cols.filter((c) => REFS.client.test(c.name)).length * 3
  if (r === 'client') return cols.filter((c) => PHONE_NAME.test(c.name) || /^(cpf|nr_?cpf)$/i.test(c.name)).length
  return cols.some((c) => NAME.test(c.name)) ? 1 : 0
}

const find = (t: LiveTable, re: RegExp, not: LiveColumn[] = []): LiveColumn | undefined => columns(t).find((c) => re.test(c.name) && !not.includes(c))

/** The key: the column the appointment's reference holds where it is not the primary key (OpenEMR's `pid`), else the primary key. */
function keyYaml (t: LiveTable, ctx?: Context): string[] {
  const held = ctx?.refs.find((r) => r.to === t && r.from === ctx.chosen.appointment && !r.key.key)?.key
  if (held) return [`    key: ${keyPart(held)}   # guess: the column the appointment's reference holds (not the primary key)`]
  const keys = columns(t).filter((c) => c.key)
  if (keys.length === 1) return [`    key: ${keyPart(keys[0])}`]
  if (keys.length > 1) return [`    key: [${keys.map(keyPart).join(', ')}]   # guess: the primary key`]
  const byName = find(t, /^(id|cod|codigo|id_\w+|cod_\w+|\w+_id)$/i)
  return byName ? [`    key: ${keyPart(byName)}   # guess: no primary key declared; by name`] : [`    key: ${ident(columns(t)[0].name)}   # TODO: no key found; the first column`]
}

function keyPart (c: LiveColumn): string {
  return c.kind === 'text' ? `{ column: ${ident(c.name)}, type: text }` : ident(c.name)
}

async function appointmentYaml (t: LiveTable, ctx: Context, found: Start | undefined, readCodes?: ReadCodes, hops: Hop[] = []): Promise<string[]> {
  const out = ['  appointment:', `    table: ${ident(qualified(t))}`, ...keyYaml(t)]
  // The time kept in the row the appointment points at (a time slot), and the rows that one names; lookups named by their names.
  const byName = ctx.byName ?? []
  if (hops.length > 0 || byName.length > 0) {
    out.push('    joins:', ...hops.map((h) => `      ${h.alias}: { table: ${ident(qualified(h.ref.to))},${h.from ? ` from: ${h.from},` : ''} on: { ${ident(h.ref.column.name)}: ${ident(h.ref.key.name)} } }   # guess: ` +
      (h.from ? `the ${h.from} row names it` : 'the appointment\'s time is kept there')),
    ...byName.map((n) => `      ${n.alias}: { table: ${ident(qualified(n.table))}, on: { ${ident(n.column.name)}: ${ident(n.name.name)} } }   # guess: every sampled ${n.column.name} is the ${n.name.name} of one ${qualified(n.table)} row`))
  }
  out.push('    start:')
  const start = found ?? findStart(t, ctx.samples, ctx.today)
  const p = start?.via ? 'slot.' : ''
  if (start?.datetime) {
    out.push(`      datetime: { column: ${p}${ident(start.datetime.name)}, format: ${start.format} }   # guess: ${start.note}`)
    if (/utc/i.test(start.datetime.name)) out.push('      # TODO: the name says UTC: if so, add `storedIn: UTC` and `timezone:` at the top (docs/mapping.md#date-times-stored-in-utc)')
    else if (['create_date', 'write_date'].every((n) => t.columns.has(n))) ctx.stampedUtc = t
    else ctx.starts = { column: `${p}${start.datetime.name}`, values: ctx.samples.values(start.via?.to ?? t, start.datetime.name) ?? [] }
  } else if (start?.date) {
    out.push(`      date: { column: ${p}${ident(start.date.name)}, format: ${start.format} }   # guess: ${start.note}`)
    out.push(start.hour
      ? `      hour: { column: ${p}${ident(start.hour.name)}, format: ${start.hourFormat ?? 'text'} }   # guess: an hour of the day beside the date`
      : '      hour: { column: TODO_HOUR_COLUMN, format: text }   # TODO: no hour column recognised')
  } else {
    out.push('      date: { column: TODO_DATE_COLUMN, format: date }   # TODO: no date column recognised',
      '      hour: { column: TODO_HOUR_COLUMN, format: text }   # TODO: no hour column recognised')
  }
  out.push(...undated(t, start, ctx.samples))
  // No end column: a length beside the start (OpenEMR's pc_duration), in the unit its values show.
  const length = start?.end === undefined && !start?.via ? columns(t).find((c) => c.kind === 'number' && FIELDS.duration.test(c.name)) : undefined
  if (length) out.push('    end:', durationYaml('      duration', t, length, ctx))
  if (start?.end) {
    const inclusive = start.endInclusive ? ', inclusive: true' : ''
    out.push('    end:', `      ${start.datetime ? 'datetime' : 'hour'}: { column: ${p}${ident(start.end.name)}, format: ${start.endFormat ?? 'datetime'}${inclusive} }   # guess` +
      (start.endInclusive ? ': its sampled minutes end in 4 or 9 (09:14), so the last minute is stored' : ''))
  }
  const chosenState = stateColumn(t, ctx.samples)
  const state = chosenState?.column
  const codes = state && readCodes ? await readCodes(qualified(t), state.name).catch(() => []) : []
  const labels = state ? codeLabels(ctx.catalog, ctx.samples, t, codes) : undefined
  const freeCode = codes.map((c) => c.code.trim()).find((c) => readCode(c, labels).reading?.state === 'FREE')
  const client = ctx.chosen.client
  const clientRef = client ? ctx.refs.find((x) => x.from === t && x.to === client) : undefined
  const lookupRefs = ctx.refs.filter((x) => x.from === t && x !== clientRef && x.to !== ctx.chosen.professional && Object.values(ctx.chosen).includes(x.to)).map((x) => x.column)
  // The codes of the rows naming no client, over the whole table: open slots and a provider's own time are told by them.
  const bare = state && clientRef && readCodes ? await readCodes(qualified(t), state.name, clientRef.column).catch(() => undefined) : undefined
  const stateCounts = bare === undefined ? undefined : { all: new Map(codes.map((c) => [c.code.trim(), c.n])), without: new Map(bare.map((c) => [c.code.trim(), c.n])) }
  const none: Clientless = clientRef && client
    ? clientless(ctx.samples, { table: t, client: clientRef.column, clientKeys: new Set((ctx.samples.values(client, clientRef.key.name) ?? []).map(asText)), state, stateCounts, freeCode, refs: lookupRefs })
    : { lines: [] }
  let stateWrites: string[] = []
  if (state && chosenState) {
    const draft = stateDraft({ column: state, note: chosenState.note, codes, labels, defaultCode: literal(state.defaultSql), ahead: aheadByCode(t, state, start, ctx.samples, ctx.today), openSlot: none.openSlot, evidence: codeEvidence(t, state, start, ctx.refs.find((x) => x.from === t && x.to === ctx.chosen.professional)?.column, ctx.samples, ctx.today) })
    out.push(...draft.lines)
    stateWrites = draft.writes
    ctx.states = draft.states
  } else {
    out.push('    state: { value: WAITING }   # TODO: no status column recognised')
  }
  const refs = (Object.keys(REFS) as (keyof typeof REFS)[]).filter((r) => !byName.some((n) => n.resource === r)).flatMap((r) => {
    const other = ctx.chosen[r]
    const found = other ? ctx.refs.find((x) => x.from === t && x.to === other) : undefined
    if (found) {
      const empty = ctx.samples.values(t, found.column.name)
      const nulls = r === 'client' && found.by !== 'names' && empty !== undefined && none.lines.length === 0 ? rowsWithout(t, found.column.name, ctx) : 0
      const why = found.by === 'declared' ? `a foreign key to ${qualified(other as LiveTable)}.${found.key.name}` : found.by === 'values' ? `every sampled value is a ${qualified(other as LiveTable)}.${found.key.name}` : 'by name'
      const sentinel = (r === 'client' ? none.nullIf : undefined) ?? noneDefault(found, ctx.samples)
      const column = sentinel !== undefined ? `{ column: ${ident(found.column.name)}, ${found.column.kind === 'text' ? 'type: text, ' : ''}nullIf: [${sentinel}] }` : keyPart(found.column)
      return [`      ${r}: ${column}   # ${found.by === 'declared' ? 'declared' : 'guess'}: ${why}` +
        (nulls > 0 ? `; ${nulls} sampled rows have none: if they are open slots, see openSlots in docs/mapping.md` : '') +
        (sentinel !== undefined ? `; ${sentinel} is no ${qualified(other as LiveTable)} key: it stands for none` : '')]
    }
    const hop = other ? hops.map((h) => ({ h, x: ctx.refs.find((x) => x.from === h.ref.to && x.to === other) })).find((y) => y.x !== undefined) : undefined
    if (hop?.x) return [`      ${r}: ${hop.h.alias}.${ident(hop.x.column.name)}   # ${hop.x.by === 'declared' ? 'declared' : 'guess'}: the ${hop.h.alias} row names ${qualified(other as LiveTable)}`]
    if (r !== 'client' && !other) return []
    const c = find(t, REFS[r]) ?? (other ? refColumns(t).find((x) => refersTo(x, other)) : undefined)
    return c ? [`      ${r}: ${keyPart(c)}   # guess`] : []
  })
  refs.push(...byName.map((n) => `      ${n.resource}: ${n.alias}.${ident(n.key.name)}   # guess: the ${n.resource} is named by its ${n.name.name} in ${n.column.name}`))
  if (refs.length > 0) out.push('    refs:', ...refs)
  out.push(...none.lines)
  // The time lives in the slot row: a booking finds the slot and writes only the pointer to it.
  const written = byName.length === 0 ? [] : ['      refs:', ...byName.map((n) => `        ${n.resource}: { firstOf: ${n.alias} }   # guess: a booking writes the ${n.name.name} of the ${n.resource} sent`)]
  const slot = start?.via ? [`      slot: { join: slot }   # guess: the appointment points at its time slot (${qualified(start.via.to)}), one appointment per slot; TODO capacity if a slot takes more (a number, a column, or minutes: docs/mapping.md#normalised-schemas)`] : []
  out.push(...writeYaml(t, ctx, out, [...slot, ...written, ...stateWrites]))
  return out
}

/**
 * What a new row must fill that the mapping does not: a NOT NULL column without a default
 * gets now (a date) or its most frequent sampled value, each said as the guess it is;
 * `after` rows (a phone kept in a child row) are passed through.
 */
function writeYaml (t: LiveTable, ctx: Context, written: string[], after: string[], also: LiveTable[] = [], keyGiven = false): string[] {
  // Columns the draft already maps (named in its lines, comments aside) are written by their fields.
  const mapped = new Set(written.map((l) => l.replace(/#.*$/, '')).join(' ').toLowerCase().match(/[\w$#@]+/g))
  const set = fills(t, ctx.catalog, ctx.samples, mapped, '        ')
  // A key the database does not fill: the next number, as legacy desks count.
  const keyLine = written.find((l) => /^ {4}key: /.test(l)) ?? ''
  const key = columns(t).find((c) => new RegExp(`^ {4}key: (\\{ column: )?${c.name.replace(/\W/g, '\\$&')}\\b`).test(keyLine))
  // A key the row before it gives (the person's, in OpenMRS's patient) is none to make.
  const keyWrite = key && !key.generated && !keyLine.includes('[') && !keyGiven ? [`      key: { generate: max }   # guess: \`${key.name}\` is not filled by the database; new rows take the highest plus one`] : []
  const kept = keptTables([t, ...also])
  if (set.length === 0 && after.length === 0 && keyWrite.length === 0) return kept.length > 0 ? ['    write:', ...kept] : []
  return ['    write:', ...kept, ...keyWrite, ...set.length > 0 ? ['      set:', ...set] : [], ...after]
}

/**
 * Tables a resource writes that cannot roll back (MariaDB/MySQL MyISAM, Aria), each named,
 * and the declaration that accepts it: without it every write is refused (501) and `ponte
 * check` fails, though the clinic's own program writes those tables so every day. A refused
 * write may then stay half written; converting the tables and removing the line is the
 * clinic's better choice, which the TODO says.
 */
function keptTables (tables: LiveTable[]): string[] {
  const kept = [...new Set(tables)].flatMap((t) => {
    const engine = nonTransactional(t)
    return engine === undefined ? [] : [`\`${qualified(t)}\` is ${engine}`]
  })
  return kept.length === 0
    ? []
    : [`      nonTransactional: accept   # TODO: ${kept.join(', ')}, which cannot roll back: accepted so that writes run as the clinic's program's do, but a write refused after writing stays half written; ` +
        'convert the tables to InnoDB where the clinic\'s program allows and remove this line (docs/mapping.md#tables-that-cannot-roll-back-myisam-aria)']
}

/** Sampled rows of `t` whose `column` is NULL: all its rows sampled, less those with a value. */
function rowsWithout (t: LiveTable, column: string, ctx: Context): number {
  const key = columns(t)[0]
  return (ctx.samples.values(t, key.name)?.length ?? 0) - (ctx.samples.values(t, column)?.length ?? 0)
}

function clientYaml (t: LiveTable, catalog: LiveCatalog, ctx: Context): string[] {
  const { samples, refs } = ctx
  const out = ['  client:', `    table: ${ident(qualified(t))}`, ...keyYaml(t, ctx)]
  const direct = namesOf(t, samples)
  const through = direct ? undefined : namesThrough(t, refs, samples)
  // Names in child rows of the person (OpenMRS's person_name), the person's other columns in its own row.
  const below = direct || through ? undefined : namesBelow(t, refs, samples)
  const person = through?.via.to ?? below?.person ?? t
  const prefix = through || person !== t ? 'person.' : ''
  const contacts = contactRows(person, refs, samples)
  const joins: string[] = []
  const after: string[] = []
  if (through) joins.push(`      person: { table: ${ident(qualified(through.via.to))}, on: { ${ident(through.via.column.name)}: ${ident(through.via.key.name)} } }   # guess: the names are kept there`)
  if (below) {
    const key = soleKey(below.child.from)
    if (person !== t) joins.push(`      person: { table: ${ident(qualified(person))}, on: { ${ident(below.on.name)}: ${ident(soleKey(person)?.name ?? below.child.key.name)} } }   # guess: its key is the person's`)
    joins.push(`      name: { table: ${ident(qualified(below.child.from))}, on: { ${ident(below.on.name)}: ${ident(below.child.column.name)} }${key ? `, first: { key: ${ident(key.name)} }` : ''} }   # guess: the names are kept in these rows, one taken per client`)
  }
  // A CPF kept in identifier rows of the person, where no column of its own holds one.
  const idRows = cpfColumn(person, samples) === undefined ? cpfRows(person, refs, samples) : undefined
  const idKey = idRows ? soleKey(idRows.ref.from) : undefined
  if (idRows) {
    const where = idRows.kind ? `, where: { column: ${ident(idRows.kind.name)}, eq: ${lit(idRows.kind, idRows.kindValue ?? '')} }` : ''
    joins.push(`      cpfrow: { table: ${ident(qualified(idRows.ref.from))}, on: { ${ident(through ? through.via.column.name : below?.on.name ?? idRows.ref.key.name)}: ${ident(idRows.ref.column.name)} }${where}` +
      `${idKey ? `, first: { key: ${ident(idKey.name)} }` : ''} }   # guess: its sampled values${idRows.kind ? ` of ${idRows.kind.name} ${idRows.kindValue ?? ''}` : ''} are valid CPFs`)
  }
  if (contacts?.emailKind !== undefined) {
    joins.push(`      mail: { table: ${ident(qualified(contacts.ref.from))}, on: { ${ident(onColumn(contacts, through, below))}: ${ident(contacts.ref.column.name)} }, where: { column: ${ident(contacts.kind.name)}, eq: ${lit(contacts.kind, contacts.emailKind)} } }   # guess: e-mails are its ${kindSaid(contacts, contacts.emailKind)} rows; one per client expected (add \`first:\` if several)`)
  }
  if (joins.length > 0) out.push('    joins:', ...joins)
  out.push('    fields:')
  out.push(nameYaml(direct ?? through?.names ?? below?.names, below ? 'name.' : prefix))
  const cpf = cpfColumn(person, samples)
  if (cpf) out.push(`      cpf: ${prefix}${ident(cpf.column.name)}   # guess: ${cpf.checked ? 'its sampled values are valid CPFs' : 'named cpf; no rows to check the digits'}`)
  else if (idRows) out.push(`      cpf: cpfrow.${ident(idRows.value.name)}   # guess`)
  const cpfValues = cpf ? samples.values(person, cpf.column.name) ?? [] : idRows ? samples.values(idRows.ref.from, idRows.value.name) ?? [] : []
  const email = emailColumn(person, samples)
  if (email) out.push(`      email: ${prefix}${ident(email.name)}   # guess`)
  else if (contacts?.emailKind !== undefined) out.push(`      email: mail.${ident(contacts.value.name)}   # guess`)
  const birthday = birthdayOf(person, samples)
  if (birthday) out.push(`      birthday: { column: ${prefix}${ident(birthday.column.name)}, format: ${birthday.format} }   # guess${birthday.note ? `: ${birthday.note}` : ''}`)
  const description = find(t, FIELDS.description)
  if (description) out.push(`      description: ${ident(description.name)}   # guess`)
  const phones = phoneColumns(person, samples)
  const phoneValues = phones.flatMap((c) => samples.values(person, c.name) ?? [])
  if (contacts) phoneValues.push(...(samples.values(contacts.ref.from, contacts.value.name) ?? []).filter((v) => phoneValue(asText(v))))
  ctx.home = phoneHome(phoneValues)
  out.push(...phonesYaml(through ? [] : phones, contacts, contacts ? onColumn(contacts, through, below) : '', after, ctx))
  if (!contacts) {
    // Contacts kept in child rows not recognised from values (no rows): written by hand, with `collect`.
    for (const child of catalog.tables.filter((c) => c !== t && !Object.values(ctx.chosen).includes(c) && refColumns(c).some((r) => refersTo(r, t)) && columns(c).some((x) => CONTACT.test(x.name)))) {
      const on = refColumns(child).find((r) => refersTo(r, t))?.name ?? ''
      out.push(`    # TODO phones, email: \`${qualified(child)}\` may hold them in child rows (${columns(child).map((c) => c.name).join(', ')}); ` +
        `e.g. phones: [{ collect: { table: ${ident(qualified(child))}, on: { ${on}: ${on} }, where: { column: …, eq: … }, column: … } }] (docs/mapping.md#normalised-schemas)`)
    }
  }
  const format = ctx.home?.format ? [`      phoneFormat: ${isPhoneMask(ctx.home.format.name) ? `'${ctx.home.format.name}'` : ctx.home.format.name}   # guess: ${ctx.home.format.seen}`] : []
  if (contacts?.emailKind !== undefined) {
    after.push(...rowYaml('join: mail', `a new e-mail is an ${kindSaid(contacts, contacts.emailKind)} row`, contacts.ref.from, false, ctx, [contacts.kind, contacts.value, contacts.ref.column],
      [`${ident(contacts.kind.name)}: { value: ${lit(contacts.kind, contacts.emailKind)} }`]))
  }
  if (idRows) {
    after.push(...rowYaml('join: cpfrow', `a new CPF is a ${qualified(idRows.ref.from)} row`, idRows.ref.from, false, ctx, [idRows.value, idRows.ref.column, ...idRows.kind ? [idRows.kind] : []],
      idRows.kind ? [`${ident(idRows.kind.name)}: { value: ${lit(idRows.kind, idRows.kindValue ?? '')} }`] : []))
  }
  // Stored masked (123.456.789-09) mostly: written so too (the default writes digits).
  if ((share(cpfValues, (v) => /^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(v)) ?? 0) >= 0.8) format.push('      cpfFormat: masked   # guess: the stored CPFs are masked, 123.456.789-09')
  const before: string[] = []
  if (through) before.push(...rowYaml('join: person', `the person row is written first, its key into ${through.via.column.name}`, through.via.to, true, ctx, [through.via.key, ...usedOf('person', out, through.via.to)]))
  if (below && person !== t) before.push(...rowYaml('join: person', `the person row is written first: its key is this row's ${below.on.name}`, person, true, ctx, usedOf('person', out, person)))
  if (below) {
    const nameKey = soleKey(below.child.from)
    after.push(...rowYaml('join: name', `a new client's names are a ${qualified(below.child.from)} row`, below.child.from, false, ctx,
      [below.child.column, ...nameKey ? [nameKey] : [], ...usedOf('name', out, below.child.from)]))
  }
  // Tables written with the client's row: its person row first, its phone and e-mail rows after.
  const rowsOf = [...through ? [through.via.to] : [], ...contacts !== undefined && after.length > 0 ? [contacts.ref.from] : []]
  out.push(...writeYaml(t, ctx, out, [...format, ...before.length > 0 ? ['      before:', ...before] : [], ...after.length > 0 ? ['      after:', ...after] : []], rowsOf,
    below !== undefined && person !== t))
  return out
}

/**
 * One `phones` list for the phone columns and the phones kept in key/value child rows (OSCAR's
 * `phone`, `phone2` and `demographicExt` `demo_cell` rows), mobiles first. A new phone is written
 * where the first entry reads it: its column, or (pushed onto `after`) a child row of its kind.
 */
function phonesYaml (columnsOf: LiveColumn[], contacts: ContactRows | undefined, on: string, after: string[], ctx: Context): string[] {
  const rows = contacts !== undefined && contacts.phoneKinds.length > 0 ? contacts : undefined
  if (columnsOf.length === 0 && !rows) return []
  const entries = columnsOf.map((c) => ({ line: ident(c.name), mobile: MOBILE_NAME.test(c.name) }))
  if (rows) {
    const line = `collect: { table: ${ident(qualified(rows.ref.from))}, on: { ${ident(on)}: ${ident(rows.ref.column.name)} }, ` +
      `where: ${rows.active ? '[' : ''}{ column: ${ident(rows.kind.name)}, in: [${rows.phoneKinds.map((k) => lit(rows.kind, k)).join(', ')}] }` +
      `${rows.active ? `, { column: ${ident(rows.active.name)}, eq: true }]` : ''}, column: ${ident(rows.value.name)} }`
    // Child rows of a mobile kind come before columns that are not named as mobiles.
    const mobile = rows.phoneKinds.some((k) => MOBILE_NAME.test(k))
    const before = entries.findIndex((e) => !e.mobile)
    entries.splice(mobile && before >= 0 ? before : entries.length, 0, { line, mobile })
  }
  if (!rows) return [`    phones: [${entries.map((e) => e.line).join(', ')}]   # guess: in order of preference, mobiles first`]
  const at = entries.findIndex((e) => e.line.startsWith('collect:'))
  const both = columnsOf.length > 0 ? `; the columns ${columnsOf.map((c) => c.name).join(', ')} hold phones too, so all are listed, mobiles first` : ''
  if (at === 0) after.push(...rowYaml('phones: 0', `a new phone is a ${kindSaid(rows, rows.phoneKinds[0])} row`, rows.ref.from, false, ctx, [rows.kind, rows.value, rows.ref.column], [`${ident(rows.kind.name)}: { value: ${lit(rows.kind, rows.phoneKinds[0])} }`]))
  return [`    phones:   # guess: key/value child rows whose values look like phones (${rows.seen})${both}` +
    (at > 0 ? `; a new phone is written to ${entries[0].line}, the first` : ''), ...entries.map((e) => `      - ${e.line}`)]
}

/** A length in the unit its name or values show; a TODO when nothing tells. */
function durationYaml (key: string, t: LiveTable, c: LiveColumn, ctx: Context): string {
  const { unit, note, sure } = durationUnit(t, c, ctx.samples)
  return `${key}: { column: ${ident(c.name)}, unit: ${unit} }   # ${sure ? 'guess' : 'TODO'}: ${note}`
}

/**
 * A row written with the resource's (`write.before`/`after`, in block style): its key where it
 * needs one (identity where the database numbers it; in a `before` row the key is read back for
 * the resource's row), `set` for what `given` says and what the table requires beyond `used`.
 */
function rowYaml (head: string, why: string, t: LiveTable, first: boolean, ctx: Context, used: LiveColumn[], given: string[] = []): string[] {
  const key = soleKey(t)
  const keyLine = key === undefined ? [] : key.generated ? (first ? ['          key: { generate: identity }'] : []) : ['          key: { generate: max }   # guess: not filled by the database; the highest plus one']
  const mapped = new Set([...used, ...key ? [key] : []].map((c) => c.name.toLowerCase()))
  for (const g of given) mapped.add(g.replace(/:.*$/, '').toLowerCase())
  const set = [...given.map((g) => `            ${g}`), ...fills(t, ctx.catalog, ctx.samples, mapped, '            ')]
  return [`        - ${head}   # guess: ${why}`, ...keyLine, ...set.length > 0 ? ['          set:', ...set] : []]
}

/** Columns of `t` the draft reads through a join's alias (`person.dob`), so written by their fields. */
function usedOf (alias: string, lines: string[], t: LiveTable): LiveColumn[] {
  const text = lines.map((l) => l.replace(/#.*$/, '')).join(' ')
  const names = new Set([...text.matchAll(new RegExp(`\\b${alias}\\.([\\w$#@]+)`, 'g'))].map((m) => m[1].toLowerCase()))
  return columns(t).filter((c) => names.has(c.name.toLowerCase()))
}

/** A kind as the comments say it: `mobile`, or `kind 8` where it is a number. */
const kindSaid = (rows: ContactRows, k: string): string => rows.kind.kind === 'number' ? `${rows.kind.name} ${k}` : k

/** A stored code as the mapping compares it: a number in a number column (`8`), quoted text elsewhere (`"mobile"`). */
const lit = (c: LiveColumn, code: string): string => c.kind === 'number' && /^-?\d+$/.test(code) ? code : JSON.stringify(code)

/** The client's column the contact rows' reference holds: its own key, or the column naming its person row (a reference, or its own key being the person's). */
const onColumn = (contacts: ContactRows, through: { via: Ref } | undefined, below?: { on: LiveColumn }): string => through ? through.via.column.name : below?.on.name ?? contacts.ref.key.name

function nameYaml (names: Names | undefined, prefix: string): string {
  if (names?.first && names.last) return `      name: { template: '{${prefix}${names.first.name}} {${prefix}${names.last.name}}' }   # guess: given and family names`
  if (names?.name) return `      name: ${prefix}${ident(names.name.name)}   # guess`
  return '      name: TODO_NAME_COLUMN   # TODO: no name column recognised'
}

const PHONE_NAME = /(cel|fone|phone|tel|mobile|whats)/i
const MOBILE_NAME = /(cel|mob|wireless|whats|movel)/i
const CONTACT = /(cel|fone|phone|tel|mobile|e_?mail|contact|contato|value|valor|numero|number)/i

function lookupYaml (r: Resource, t: LiveTable, ctx: Context): string[] {
  const out = [`  ${r}:`, `    table: ${ident(qualified(t))}`, ...keyYaml(t, ctx)]
  // A provider's name is a person's; the rest are labels (`Urgent Care (24h)`).
  const labels = r !== 'professional'
  const direct = namesOf(t, ctx.samples, labels)
  const through = direct ? undefined : namesThrough(t, ctx.refs, ctx.samples, labels)
  if (through) out.push('    joins:', `      person: { table: ${ident(qualified(through.via.to))}, on: { ${ident(through.via.column.name)}: ${ident(through.via.key.name)} } }   # guess: the names are kept there`)
  out.push('    fields:')
  const name = direct ?? through?.names
  const required = r === 'location' ? 'address' : 'name'
  if (name) out.push(nameYaml(r === 'professional' ? name : { name: name.name ?? name.first }, through ? 'person.' : ''))
  const wanted = r === 'location' ? ['address', 'city', 'state', 'cep'] : r === 'service' ? ['price', 'duration', 'description'] : r === 'professional' ? ['description'] : []
  const used = [name?.name, name?.first, name?.last].filter((c): c is LiveColumn => c !== undefined)
  let hasRequired = required === 'name' && name !== undefined
  for (const f of wanted) {
    const c = find(t, FIELDS[f], used)
    if (!c) continue
    if (f === required) hasRequired = true
    if (f === 'duration') {
      out.push(durationYaml('      duration', t, c, ctx))
      continue
    }
    const value = f === 'price' && /cent/i.test(c.name) ? `{ column: ${ident(c.name)}, divide: 100 }` : ident(c.name)
    out.push(`      ${f}: ${value}   # guess`)
  }
  const label = name?.name ?? name?.first
  const standIn = label && required === 'address'
  if (!hasRequired) {
    out.push(`      ${required}: ${standIn ? `${through ? 'person.' : ''}${ident(label.name)}` : `TODO_${required.toUpperCase()}_COLUMN`}   # TODO: no ${required} column recognised` +
      (standIn ? ': the name stands in; or a constant, `{ value: \'…\' }` (docs/mapping.md#a-location-without-an-address)' : ''))
  }
  return out
}
