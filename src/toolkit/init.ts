// `ponte init`: a draft mapping from a live database's catalog. Tables and columns are
// guessed by name (Portuguese and English habits of legacy clinic systems) and type; every
// guess carries a comment, and what could not be guessed is left as a TODO, so the draft
// validates and `ponte check` shows what is left to do.
import { dirname, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { LiveCatalog, LiveColumn, LiveTable } from '../db/columns.js'

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

type Resource = 'appointment' | 'client' | 'professional' | 'location' | 'service' | 'healthInsurance' | 'specialty'

/** Table names, best first; a table is taken by the first resource that wants it. */
const TABLES: [Resource, RegExp][] = [
  ['appointment', /^(tb_?)?(agenda(mento)?s?|consultas?|appointments?|marcac(ao|oes)|atendimentos?|visits?|bookings?)$|agendament|appointment|consulta/i],
  ['client', /^(tb_?)?(pacientes?|patients?|clientes?|clients?)$|pacient|patient|client/i],
  ['professional', /^(tb_?)?(medicos?|doctors?|profissionais|profissional|professionals?|providers?|prestador(es)?)$|medico|doctor|profission|provider/i],
  ['location', /^(tb_?)?(locais|local|unidades?|clinics?|locations?|filia(l|is)|sites?)$|unidade|clinic|location|local/i],
  ['service', /^(tb_?)?(servicos?|services?|procedimentos?|treatments?|exames?)$|servic|procediment|treatment/i],
  ['healthInsurance', /^(tb_?)?(convenios?|insurers?|insurances?|operadoras?|planos?_?saude)$|convenio|insur/i],
  ['specialty', /^(tb_?)?(especialidades?|specialt(y|ies))$|especialid|specialt/i]
]

/** A column of the appointment row that holds the id of each other resource. */
const REFS: Record<Exclude<Resource, 'appointment'>, RegExp> = {
  client: /^(id_?|cod_?)?(pac(iente)?|patient|cli(ente)?|client)(_?id|_?cod)?$/i,
  professional: /^(id_?|cod_?)?(med(ico)?|doctor|prof(issional)?|prestador|provider)(_?id|_?ref|_?cod)?$/i,
  location: /^(id_?|cod_?)?(local|unid(ade)?|clinic|sala|site|location)(_?id|_?cod)?$/i,
  service: /^(id_?|cod_?)?(serv(ico)?|proc(edimento)?|treatment|exame|service)(_?id|_?cod)?$/i,
  healthInsurance: /^(id_?|cod_?)?(conv(enio)?|insurer|insurance|plano)(_?id|_?cod)?$/i,
  specialty: /^(id_?|cod_?)?(esp(ecialidade)?|specialty)(_?id|_?cod)?$/i
}

const NAME = /^(nome|name|nm|nome_completo|full_name|display_name|descr(icao)?|description|nome_\w+)$/i
const FIELDS: Record<string, RegExp> = {
  email: /^(e_?mail|email_?\w*)$/i,
  cpf: /^(cpf|nr_?cpf|num_?cpf|national_id|ssn|tax_id)$/i,
  birthday: /(nasc|birth|dob)/i,
  description: /^(obs(ervac(ao|oes))?|notes?|bio|descr(icao)?|description)$/i,
  phone: /(cel|fone|phone|tel|mobile|whats)/i,
  address: /(ender|address|logradouro|^rua$)/i,
  city: /^(cidade|city|munic(ipio)?)$/i,
  state: /^(uf|estado|state)$/i,
  cep: /^(cep|postal_?code|zip(_?code)?)$/i,
  price: /(preco|valor|price)/i,
  duration: /(durac|duration|tempo|minutos)/i
}

/** Code names clinics use for states, in Portuguese and English. */
const STATE_WORDS: [RegExp, string][] = [
  [/^(ag|agendad[oa]|marcad[oa]|scheduled|booked|pending|waiting|aguardando)$/i, 'WAITING'],
  [/^(conf|confirmad[oa]|confirmed)$/i, 'CONFIRMED'],
  [/^(canc|cancelad[oa]|cancell?ed|desmarcad[oa])$/i, 'CANCELED'],
  [/^(falt(a|ou)|no_?show|missed|ausente)$/i, 'MISSED'],
  [/^(realizad[oa]|atendid[oa]|done|completed|finished|conclu[ií]d[oa])$/i, 'DONE']
]

export interface Draft { yaml: string, tables: Partial<Record<Resource, string>> }

/** Stored values of a column with their counts (codes, not patient data), most frequent first. */
export type ReadCodes = (table: string, column: string) => Promise<{ code: string, n: number }[]>

/** `link`: where the draft's editors find the schema (`schemaLink`). */
export async function draftMapping (catalog: LiveCatalog, installation: string, readCodes?: ReadCodes, link = schemaLink()): Promise<Draft> {
  const taken = new Set<LiveTable>()
  const chosen: Partial<Record<Resource, LiveTable>> = {}
  for (const [resource, pattern] of TABLES) {
    const candidates = catalog.tables.filter((t) => !taken.has(t) && pattern.test(t.name))
      .sort((a, b) => score(b, resource) - score(a, resource))
    if (candidates[0]) { chosen[resource] = candidates[0]; taken.add(candidates[0]) }
  }
  const out: string[] = [
    `# yaml-language-server: $schema=${link}`,
    `# Draft written by \`ponte init\` from the database catalog. Every "guess" comment marks`,
    '# a choice made by name or type: confirm or correct it, then run `ponte check`.',
    'version: 1',
    `installation: ${installation}`,
    'resources:'
  ]
  // Named like nothing we know: the tables shaped like one are the candidates, the best a guess.
  const shaped = (r: 'appointment' | 'client'): LiveTable[] => catalog.tables.filter((t) => !taken.has(t) && (r === 'appointment' ? appointmentShaped(t) : clientShaped(t, chosen.appointment)))
    .sort((a, b) => score(b, r) - score(a, r))
  const candidates: Partial<Record<'appointment' | 'client', LiveTable[]>> = {}
  for (const r of ['appointment', 'client'] as const) {
    if (chosen[r]) continue
    candidates[r] = shaped(r)
    const best = candidates[r]?.[0]
    if (best) { chosen[r] = best; taken.add(best) }
  }
  const apt = chosen.appointment
  const cli = chosen.client
  out.push(...shapeNote('appointment', apt, candidates.appointment, 'a date or timestamp and two columns naming other rows (…_id)'))
  out.push(...apt ? await appointmentYaml(apt, chosen, readCodes) : placeholder('appointment'))
  out.push(...shapeNote('client', cli, candidates.client, 'a name or phone column, named by the appointment\'s rows'))
  out.push(...cli ? clientYaml(cli, catalog) : placeholder('client'))
  for (const r of ['professional', 'location', 'service', 'healthInsurance', 'specialty'] as const) {
    const t = chosen[r]
    if (t) out.push(...lookupYaml(r, t))
    else out.push(`  # ${r}: no table recognised (TODO, or leave it out)`)
  }
  out.push('# relations: none guessed (TODO: link tables, see docs/mapping.md)')
  const hours = catalog.tables.filter((t) => !taken.has(t) && find(t, WEEKDAY) !== undefined)
  for (const t of hours) {
    out.push(`# TODO availability.weekly: \`${qualified(t)}\` looks like working hours by weekday (${columns(t).map((c) => c.name).join(', ')}); ` +
      'see `availability` in docs/mapping.md, and say how its weekday counts (`weekdayBase: 0`, `1` or `iso`)')
  }
  out.push('')
  return { yaml: out.join('\n'), tables: Object.fromEntries(Object.entries(chosen).map(([k, t]) => [k, qualified(t)])) }
}

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
  const holds = columns(t).some((c) => NAME.test(c.name) || FIRST.test(c.name) || FIELDS.phone.test(c.name))
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
  if (r === 'client') return cols.filter((c) => FIELDS.phone.test(c.name) || FIELDS.cpf.test(c.name)).length
  return cols.some((c) => NAME.test(c.name)) ? 1 : 0
}

const qualified = (t: LiveTable): string => t.schema && !['dbo', 'main', 'public'].includes(t.schema.toLowerCase()) ? `${t.schema}.${t.name}` : t.name
const columns = (t: LiveTable): LiveColumn[] => [...t.columns.values()]
const find = (t: LiveTable, re: RegExp, not: LiveColumn[] = []): LiveColumn | undefined => columns(t).find((c) => re.test(c.name) && !not.includes(c))
const ident = (name: string): string => /^[A-Za-z_#@][A-Za-z0-9_$#@]*$/.test(name) ? name : JSON.stringify(name)

function keyYaml (t: LiveTable): string[] {
  const keys = columns(t).filter((c) => c.key)
  if (keys.length === 1) return [`    key: ${keyPart(keys[0])}`]
  if (keys.length > 1) return [`    key: [${keys.map(keyPart).join(', ')}]   # guess: the primary key`]
  const byName = find(t, /^(id|cod|codigo|id_\w+|cod_\w+|\w+_id)$/i)
  return byName ? [`    key: ${keyPart(byName)}   # guess: no primary key declared; by name`] : [`    key: ${ident(columns(t)[0].name)}   # TODO: no key found; the first column`]
}

function keyPart (c: LiveColumn): string {
  return c.kind === 'text' ? `{ column: ${ident(c.name)}, type: text }` : ident(c.name)
}

function hourFormat (c: LiveColumn): string {
  return c.kind === 'number' ? 'hhmm' : c.kind === 'date' ? 'time' : 'text'
}

async function appointmentYaml (t: LiveTable, chosen: Partial<Record<Resource, LiveTable>>, readCodes?: ReadCodes): Promise<string[]> {
  const out = ['  appointment:', `    table: ${ident(qualified(t))}`, ...keyYaml(t), '    start:']
  const datetime = columns(t).find((c) => (c.kind === 'date' || c.kind === 'text') && /(starts?_at|start_?time|start_?date|inicio|data_?hora|datetime|begin|dt_?hr|scheduled_?at)/i.test(c.name))
  const used: LiveColumn[] = []
  if (datetime) {
    used.push(datetime)
    out.push(`      datetime: { column: ${ident(datetime.name)}, format: datetime }   # guess: a date-time column named like a start`)
  } else {
    const date = find(t, /^(data|date|dt|dia|dt_\w+|data_\w+|\w+_date)$/i)
    const hour = find(t, /^(hora|hour|time|hr|hora_\w+|hr_\w+|\w+_time)$/i)
    out.push(date ? `      date: { column: ${ident(date.name)}, format: ${date.kind === 'number' ? 'int' : date.kind === 'date' ? 'date' : 'text'} }   # guess: by name and type`
      : `      date: { column: TODO_DATE_COLUMN, format: date }   # TODO: no date column recognised`)
    out.push(hour ? `      hour: { column: ${ident(hour.name)}, format: ${hourFormat(hour)} }   # guess: by name and type`
      : `      hour: { column: TODO_HOUR_COLUMN, format: text }   # TODO: no hour column recognised`)
  }
  const end = datetime ? columns(t).find((c) => (c.kind === 'date' || c.kind === 'text') && /(ends?_at|end_?time|end_?date|fim|termino)/i.test(c.name)) : undefined
  if (end) out.push('    end:', `      datetime: { column: ${ident(end.name)}, format: datetime }   # guess`)
  const state = find(t, /^(status|situacao|sit|st|estado|state|status_\w+|\w+_status|situac\w*)$/i)
  if (state) {
    out.push('    state:', `      column: ${ident(state.name)}   # guess: the status column`, `      type: ${state.kind === 'number' ? 'int' : 'text'}`,
      '      map:   # each stored code → WAITING, CONFIRMED, CANCELED, MISSED or DONE; codes left out are listed by ponte check')
    const codes = readCodes ? await readCodes(qualified(t), state.name).catch(() => []) : []
    const guessed = codes.flatMap(({ code, n }) => {
      const s = STATE_WORDS.find(([re]) => re.test(code.trim()))?.[1]
      return s ? [`        ${JSON.stringify(code.trim())}: ${s}   # guess: by the code's name (${n} rows)`] : []
    })
    // A map needs one entry: the most frequent code, marked as the guess it is.
    if (guessed.length === 0) guessed.push(`        ${JSON.stringify(codes[0]?.code.trim() ?? '0')}: WAITING   # TODO: a placeholder, not a guess${codes[0] ? ` (${codes[0].n} rows)` : ''}`)
    out.push(...guessed)
  } else {
    out.push('    state: { value: WAITING }   # TODO: no status column recognised')
  }
  const refs = (Object.keys(REFS) as (keyof typeof REFS)[]).flatMap((r) => {
    if (r !== 'client' && !chosen[r]) return []
    const other = chosen[r]
    const c = find(t, REFS[r]) ?? (other ? refColumns(t).find((x) => refersTo(x, other)) : undefined)
    return c ? [`      ${r}: ${keyPart(c)}   # guess`] : []
  })
  if (refs.length > 0) out.push('    refs:', ...refs)
  return out
}

const FIRST = /^(first_?name|given_?name|primeiro_?nome|nome)$/i
const LAST = /^(last_?name|family_?name|sobrenome|surname|apelido)$/i

function clientYaml (t: LiveTable, catalog: LiveCatalog): string[] {
  const out = ['  client:', `    table: ${ident(qualified(t))}`, ...keyYaml(t), '    fields:']
  const first = find(t, FIRST)
  const last = find(t, LAST)
  const name = find(t, NAME)
  if (first && last) out.push(`      name: { template: '{${first.name}} {${last.name}}' }   # guess: first and last name`)
  else if (name) out.push(`      name: ${ident(name.name)}   # guess`)
  else out.push('      name: TODO_NAME_COLUMN   # TODO: no name column recognised')
  for (const f of ['description', 'cpf', 'email', 'birthday'] as const) {
    const c = find(t, FIELDS[f])
    if (!c) continue
    if (f === 'birthday') out.push(`      birthday: { column: ${ident(c.name)}, format: ${c.kind === 'number' ? 'int' : c.kind === 'date' ? 'date' : 'text'} }   # guess`)
    else out.push(`      ${f}: ${ident(c.name)}   # guess`)
  }
  const phones = columns(t).filter((c) => FIELDS.phone.test(c.name) && c.kind !== 'number' && c.kind !== 'date')
  if (phones.length > 0) out.push(`    phones: [${phones.map((c) => ident(c.name)).join(', ')}]   # guess: in order of preference`)
  // Contacts kept in child rows (a kind and a value per row): written by hand, with `collect`.
  for (const child of catalog.tables.filter((c) => c !== t && refColumns(c).some((r) => refersTo(r, t)) && columns(c).some((x) => CONTACT.test(x.name)))) {
    const on = refColumns(child).find((r) => refersTo(r, t))?.name ?? ''
    out.push(`    # TODO phones, email: \`${qualified(child)}\` may hold them in child rows (${columns(child).map((c) => c.name).join(', ')}); ` +
      `e.g. phones: [{ collect: { table: ${ident(qualified(child))}, on: { ${on}: ${on} }, where: { column: …, eq: … }, column: … } }] (docs/mapping.md#normalised-schemas)`)
  }
  return out
}

const CONTACT = /(cel|fone|phone|tel|mobile|e_?mail|contact|contato|value|valor|numero|number)/i

function lookupYaml (r: Resource, t: LiveTable): string[] {
  const out = [`  ${r}:`, `    table: ${ident(qualified(t))}`, ...keyYaml(t), '    fields:']
  const name = find(t, NAME)
  const required = r === 'location' ? 'address' : 'name'
  if (name) out.push(`      name: ${ident(name.name)}   # guess`)
  const wanted = r === 'location' ? ['address', 'city', 'state', 'cep'] : r === 'service' ? ['price', 'duration', 'description'] : r === 'professional' ? ['description'] : []
  let hasRequired = required === 'name' && name !== undefined
  for (const f of wanted) {
    const c = find(t, FIELDS[f], name ? [name] : [])
    if (!c) continue
    if (f === required) hasRequired = true
    const value = f === 'duration' ? `{ column: ${ident(c.name)}, unit: ${/sec|seg/i.test(c.name) ? 'seconds' : /hour|hora/i.test(c.name) ? 'hours' : 'minutes'} }`
      : f === 'price' && /cent/i.test(c.name) ? `{ column: ${ident(c.name)}, divide: 100 }` : ident(c.name)
    out.push(`      ${f}: ${value}   # guess`)
  }
  if (!hasRequired) out.push(`      ${required}: ${name && required === 'address' ? ident(name.name) : `TODO_${required.toUpperCase()}_COLUMN`}   # TODO: no ${required} column recognised`)
  return out
}
