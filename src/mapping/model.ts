// The mapping after validation: shorthands expanded, defaults filled, and every reference
// checked (joins, vocabulary, relations), so the compiler can trust what it reads.
import type {
  MappingDoc, ValueDoc, ValueObjectDoc, WhereDoc, ConditionDoc, ConditionLeafDoc,
  JoinDoc, SqlTypeName, RefNameT, RelationDoc, LiteralValue, RuleDoc
} from './schema.js'
import { MappingError, type MappingIssue } from './errors.js'
import { isPhoneCountry, isPhoneMask } from '../normalise/phone.js'
import type { SourceDoc } from './load.js'
import { isTimeZone } from '../normalise/zones.js'
import { codeRule, sameCodes } from './compile/codes.js'
import { checkWrittenValues } from './written-values.js'
import { matchesType } from './compile/ids.js'
import { idType } from './compile/key.js'
import { keyThrough, type KeyThrough } from './compile/joined-key.js'
import { checkAddress } from './location-address.js'
import { splitProblem } from './compile/name-split.js'
import { checkFromClient } from './from-client.js'
import { checkAffixedJoins } from './affixed-joins.js'
import { checkAsOfJoins } from './as-of-joins.js'
import { extractProblem } from './extract.js'

export const LOOKUPS = ['professional', 'location', 'service', 'healthInsurance', 'specialty'] as const
export type LookupName = typeof LOOKUPS[number]
export type EntityName = RefNameT
export type Value = ValueObjectDoc & { path: string }

export const DEFAULT_STATES = ['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE']

export interface KeyPart { column: string, type: SqlTypeName }

/**
 * A table's key. `column`/`type` are its first (usually only) column; `parts` all of them.
 * The id of a composite key is its values joined by `separator`.
 */
export interface KeyModel extends KeyPart {
  parts: KeyPart[]
  separator: string
  /** A key kept in a joined row (`person.uuid`), found through the join's link column. */
  through?: KeyThrough
}

export interface TableModel {
  table: string
  key: KeyModel
  where: ConditionDoc[]
  joins: Record<string, JoinDoc>
  path: string
}

export interface LookupModel extends TableModel {
  name: LookupName
  fields: Record<string, Value>
  enabled?: Value
  /**
   * Kept as the distinct values of a column of other rows (`valuesOf`): `table`, `where` and
   * `joins` are those of `resource` (another lookup, or the client), or the mapping's own
   * (`resource` absent: a table of attribute rows); `key` the column.
   */
  valuesOf?: { resource?: LookupName | 'client', column: string, path: string, names?: Record<string, string> }
  /** Each `where` condition's place (a `valuesOf` lookup's are its source's, then its column's). */
  wherePaths?: string[]
  tablePath?: string
  /** Where the joins are declared, when not `<path>/joins` (a `valuesOf` lookup's are its source's). */
  joinsPath?: string
}

export interface AppointmentModel extends TableModel {
  start: { datetime?: Value, date?: Value, hour?: Value }
  end?: { datetime?: Value, hour?: Value, duration?: Value }
  state: Value
  /** Rows that hold a slot without being appointments (all of these conditions hold). */
  slotHolding: ConditionDoc[]
  /** Open slots as rows of this table, booked by claiming them (compile/open-slots.ts). */
  openSlots?: OpenSlotsModel
  classification?: Value
  refs: Partial<Record<EntityName, Value>>
  write?: MappingDoc['resources']['appointment']['write']
  /** Change detection (src/events/), when the mapping declares it. */
  changes?: ChangesModel
}

export interface ChangesModel {
  /** Days before and after today (clinic clock) watched by each poll. */
  daysBefore: number
  daysAfter: number
  pollMs: number
  /** Where the mapping declares one: the column read first each poll (src/events/detector.ts). */
  marker?: MarkerModel
}

export interface MarkerModel {
  column: string
  type: 'datetime' | 'int' | 'rowversion'
  inserts: boolean
  /** Every how many polls the whole window is read. */
  windowEvery: number
  path: string
}

type OpenSlotsDoc = NonNullable<MappingDoc['resources']['appointment']['openSlots']>

export interface OpenSlotsModel extends Omit<OpenSlotsDoc, 'free'> {
  /** All of these hold for a free row. */
  free: ConditionDoc[]
  path: string
}

export interface ClientModel extends TableModel {
  fields: Record<string, Value>
  phones: Value[]
  /** Who may be booked (all of these conditions hold): `bookable`, each condition with its place. */
  bookable: Array<{ condition: ConditionDoc, path: string }>
  write?: MappingDoc['resources']['client']['write']
}

export type RelationModel = {
  between: [EntityName, EntityName]
  path: string
} & (
  | { kind: 'table', table: string, joins: Record<string, JoinDoc>, where: ConditionDoc[], columns: [Value, Value], tablePath?: string, wherePaths?: string[] }
  | { kind: 'via' }
  | { kind: 'through', through: EntityName }
)

export interface MappingModel {
  file: string
  locate: SourceDoc['locate']
  installation: string
  timezone: string
  /** The zone the database stores date-times in, where the mapping declares one (compile/stored-clock.ts). */
  storedIn?: string
  /** `mask`: the client's `write.phoneFormat` where it is a mask of `#`s, the spelling a phone search looks up first. */
  phone: { defaultCountry: string, defaultAreaCode?: string, addNinthDigit?: false, mask?: string }
  search: ('phone' | 'cpf' | 'email' | 'name')[]
  /** How phones and CPFs are looked up: probes of their stored spellings (default), or a scan. */
  searchBy: { phone: 'probe' | 'scan', cpf: 'probe' | 'scan' }
  settings: Record<string, LiteralValue>
  states: { values: string[], initial: string, moves: Record<string, string[]>, onReschedule: string, free: string[] }
  cacheTtlSeconds: number
  appointment: AppointmentModel
  client: ClientModel
  lookups: Partial<Record<LookupName, LookupModel>>
  relations: RelationModel[]
  availability: MappingDoc['availability']
  doc: MappingDoc
}

const SOURCES = ['column', 'coalesce', 'template', 'rules', 'sql', 'value', 'minutes', 'collect'] as const

export function buildModel (source: SourceDoc): MappingModel {
  const { doc } = source
  const issues: Omit<MappingIssue, 'file'>[] = []
  const fail = (path: string, message: string) => issues.push({ path, message })

  const value = (v: ValueDoc, path: string): Value => {
    const { value: out, problem, at } = asValue(v, path)
    if (problem) fail(at ?? path, problem)
    return out
  }

  const table = (t: { table: string, key: unknown, where?: WhereDoc, joins?: Record<string, JoinDoc> }, path: string): TableModel => {
    const part = (k: unknown): KeyPart => typeof k === 'string' ? { column: k, type: 'int' } : { type: 'int', ...(k as { column: string, type?: SqlTypeName }) }
    const parts = Array.isArray(t.key) ? t.key.map(part) : [part(t.key)]
    const key: KeyModel = { ...parts[0], parts, separator: doc.idSeparator ?? '-' }
    const through = keyThrough(key, t.joins ?? {}, path)
    if (through) key.through = through
    return { table: t.table, key, where: whereList(t.where), joins: t.joins ?? {}, path }
  }

  const r = doc.resources
  const apptPath = '/resources/appointment'
  const appointment: AppointmentModel = {
    ...table(r.appointment, apptPath),
    start: mapValues(r.appointment.start, (v, k) => value(v, `${apptPath}/start/${k}`)),
    end: r.appointment.end ? mapValues(r.appointment.end, (v, k) => value(v, `${apptPath}/end/${k}`)) : undefined,
    state: value(r.appointment.state, `${apptPath}/state`),
    slotHolding: whereList(r.appointment.slotHolding),
    openSlots: r.appointment.openSlots ? { ...r.appointment.openSlots, free: whereList(r.appointment.openSlots.free), path: `${apptPath}/openSlots` } : undefined,
    classification: r.appointment.classification ? value(r.appointment.classification, `${apptPath}/classification`) : undefined,
    refs: mapValues(r.appointment.refs ?? {}, (v, k) => value(v, `${apptPath}/refs/${k}`)),
    write: r.appointment.write,
    changes: r.appointment.changes
      ? {
          daysBefore: r.appointment.changes.window?.daysBefore ?? 1,
          daysAfter: r.appointment.changes.window?.daysAfter ?? 90,
          pollMs: Math.round((r.appointment.changes.pollSeconds ?? 30) * 1000),
          marker: markerOf(r.appointment.changes.marker, `${apptPath}/changes/marker`)
        }
      : undefined
  }
  const { start, end } = appointment
  if (start.datetime ? (start.date || start.hour) : !(start.date && start.hour)) {
    fail(`${apptPath}/start`, 'give either `datetime`, or both `date` and `hour`')
  }
  const startDate = start.datetime ?? start.date
  const dateFormats = start.datetime ? ['datetime', 'text', undefined] : ['date', 'datetime', 'text', 'int', 'dmy', 'ymd', undefined]
  if (startDate && (startDate.column === undefined || !dateFormats.includes(startDate.format))) {
    fail(startDate.path, start.datetime
      ? 'the appointment start must be a plain `column` stored as datetime or text (YYYY-MM-DD HH:MM)'
      : 'the appointment date must be a plain `column` stored as date, datetime, text (YYYY-MM-DD), dmy (DD/MM/YYYY), ymd (YYYYMMDD text) or int (YYYYMMDD number)')
  }
  if (end && Object.keys(end).length !== 1) fail(`${apptPath}/end`, 'give exactly one of `datetime`, `hour` or `duration`')

  const clientPath = '/resources/client'
  const client: ClientModel = {
    ...table(r.client, clientPath),
    fields: mapValues(r.client.fields as Record<string, ValueDoc>, (v, k) => value(v, `${clientPath}/fields/${k}`)),
    phones: (r.client.phones ?? []).map((v, i) => value(v, `${clientPath}/phones/${i}`)),
    bookable: whereList(r.client.bookable).map((condition, i) => ({ condition, path: `${clientPath}/bookable${Array.isArray(r.client.bookable) ? `/${i}` : ''}` })),
    write: r.client.write
  }
  if (!client.fields.name) fail(`${clientPath}/fields`, 'a client needs `name`')
  // The column a new client's phone goes to: one of `phones` Ponte can write (a plain column of the table).
  const phoneColumn = client.write?.phone
  if (phoneColumn !== undefined && !client.phones.some((p) => p.column === phoneColumn && !phoneColumn.includes('.'))) {
    const plain = client.phones.flatMap((p) => p.column !== undefined && !p.column.includes('.') ? [`\`${p.column}\``] : [])
    fail(`${clientPath}/write/phone`, `\`${phoneColumn}\` is not a plain column among \`phones\` (${plain.length > 0 ? plain.join(', ') : 'none is'}): name the one a new client's phone is written to`)
  }
  if (r.client.write?.log !== undefined) fail(`${clientPath}/write/log`, '`log` rows are written with an appointment\'s changes, copying the appointment: only under the appointment\'s `write`')
  if (r.appointment.write?.phone !== undefined) fail(`${apptPath}/write/phone`, '`phone` says which column a new client\'s phone is written to: only under the client\'s `write`')
  // Extra rows are written with a new client only: on the appointment they would be accepted and never written.
  for (const side of ['before', 'after'] as const) {
    if (r.appointment.write?.[side] !== undefined) fail(`${apptPath}/write/${side}`, `\`${side}\` rows are written with a new client only (a person, names, identifiers): a booking never writes them. For rows written with an appointment's changes use \`write.history\` (a status-history row per state change) or \`stateRows\``)
  }

  const lookups: MappingModel['lookups'] = {}
  for (const name of LOOKUPS) {
    const l = r[name]
    if (!l || 'valuesOf' in l) continue
    const path = `/resources/${name}`
    const fields = mapValues(l.fields as Record<string, ValueDoc>, (v, k) => value(v, `${path}/fields/${k}`))
    const enabled = 'enabled' in l && l.enabled ? value(l.enabled as ValueDoc, `${path}/enabled`) : undefined
    lookups[name] = { ...table(l, path), name, fields, enabled }
    if (name === 'location') checkAddress(fields.address, path, fail)
    else if (!fields.name) fail(`${path}/fields`, `a ${name} needs \`name\``)
  }

  // Lookups kept as the values of another's column, once the tables they are read from are known.
  const derived: RelationModel[] = []
  for (const name of LOOKUPS) {
    const l = r[name]
    if (!l || !('valuesOf' in l)) continue
    const made = valuesOfLookup(name, l.valuesOf, lookups, client, r, doc.idSeparator ?? '-', fail)
    if (!made) continue
    lookups[name] = made.lookup
    const relation = made.relation
    if (!relation) continue
    const declaredToo = (doc.relations ?? []).findIndex((rel) => pairKey(rel.between[0], rel.between[1]) === pairKey(relation.between[0], relation.between[1]))
    if (declaredToo >= 0) fail(`/relations/${declaredToo}`, `${relation.between.join(' and ')} are related by ${name}'s \`valuesOf\` (the row holding each value): remove this relation`)
    else derived.push(relation)
  }

  const states = stateSettings(doc, fail)
  checkStateValues(appointment.state, states.values, fail)

  const declared = new Set<EntityName>(['client', 'plan', ...LOOKUPS.filter((n) => lookups[n])])
  const relations = [...(doc.relations ?? []).map((rel, i) => relation(rel, `/relations/${i}`, declared, appointment, value, fail)), ...derived]
  checkRelationsAcyclic(relations, fail)

  // A lookup kept as another resource's values has that resource's joins, checked there.
  for (const t of [appointment, client, ...Object.values(lookups).filter((l) => l?.valuesOf?.resource === undefined)]) if (t) checkJoins(t, fail)
  // An unknown country would read every stored phone as none, the server answering as if no client had one.
  const country = doc.phone?.defaultCountry
  if (country !== undefined && !isPhoneCountry(country)) fail('/phone/defaultCountry', `\`${country}\` is not a country the phone library knows (an ISO 3166 code such as BR, PT, US, CA)`)

  for (const key of ['timezone', 'storedIn'] as const) {
    const zone = doc[key]
    if (zone !== undefined && !isTimeZone(zone)) fail(`/${key}`, `\`${zone}\` is not an IANA time zone (such as UTC, America/Sao_Paulo, Europe/Lisbon)`)
  }
  // A schedule source on a clock of its own (time off typed locally beside UTC appointments).
  const blockSources = doc.availability?.blocks === undefined ? [] : Array.isArray(doc.availability.blocks) ? doc.availability.blocks.map((b, i) => [b, `/availability/blocks/${i}`] as const) : [[doc.availability.blocks, '/availability/blocks'] as const]
  for (const [source, at] of [...doc.availability?.dated ? [[doc.availability.dated, '/availability/dated'] as const] : [], ...blockSources]) {
    if (source.storedIn !== undefined && !isTimeZone(source.storedIn)) fail(`${at}/storedIn`, `\`${source.storedIn}\` is not an IANA time zone (such as UTC, America/Chicago)`)
  }

  checkWrittenValues(doc, states.values, fail)
  checkAffixedJoins(doc, fail)
  checkAsOfJoins(doc, fail)
  checkRefDefaults(appointment, lookups, fail)
  checkUuidKeys(appointment, fail)
  checkFromClient({ appointment, client }, fail)
  // A current row is found to be closed: one without the other says half of how.
  const history = doc.resources.appointment.write?.history
  if (history && (history.current === undefined) !== (history.close === undefined)) {
    fail(`${apptPath}/write/history/${history.current === undefined ? 'close' : 'current'}`, 'give `current` (which row is open) and `close` (what closes it) together, or neither: rows are then only added, the latest deciding')
  }
  // A history row is written for the state entered (`open`), for what a change leaves (`left`), or both.
  if (history && history.open === undefined) {
    if (history.left === undefined && history.after === undefined) fail(`${apptPath}/write/history`, 'give `open` (a row for each state entered, on booking too), `left` (a row for what each change leaves behind), `after` (a row for the appointment as each change left it) or several')
    else if (history.close !== undefined) fail(`${apptPath}/write/history/close`, '`current` and `close` close the row an `open` row replaces: give `open` with them')
  }
  if (history?.on !== undefined && history.left === undefined && history.after === undefined) fail(`${apptPath}/write/history/on`, '`on` says which changes add a `left` row: give `left`')
  // A booking leaves nothing behind: only an `after` row records it.
  const creates = history?.on?.indexOf('create') ?? -1
  if (history !== undefined && creates >= 0 && history.after === undefined && history.left !== undefined) fail(`${apptPath}/write/history/on/${creates}`, '`create` adds a row for the booking, which leaves nothing behind for a `left` row: give `after` (a row for the appointment as the booking made it)')

  if (issues.length > 0) {
    throw new MappingError(issues.map((i) => ({ file: source.file, ...source.locate(i.path), ...i })))
  }

  return {
    file: source.file,
    locate: source.locate,
    installation: doc.installation,
    timezone: doc.timezone ?? 'America/Sao_Paulo',
    ...(doc.storedIn !== undefined ? { storedIn: doc.storedIn } : {}),
    phone: {
      defaultCountry: doc.phone?.defaultCountry ?? 'BR',
      defaultAreaCode: doc.phone?.defaultAreaCode,
      ...doc.phone?.addNinthDigit === false ? { addNinthDigit: false } : {},
      ...isPhoneMask(client.write?.phoneFormat) ? { mask: client.write.phoneFormat } : {}
    },
    search: (doc.search ?? ['phone', 'cpf', 'email', 'name']).map((k) => typeof k === 'string' ? k : 'phone' in k ? 'phone' : 'cpf'),
    searchBy: {
      phone: doc.search?.some((k) => typeof k === 'object' && 'phone' in k && k.phone === 'scan') === true ? 'scan' : 'probe',
      cpf: doc.search?.some((k) => typeof k === 'object' && 'cpf' in k && k.cpf === 'scan') === true ? 'scan' : 'probe'
    },
    settings: doc.settings ?? {},
    states,
    cacheTtlSeconds: doc.cache?.ttlSeconds ?? 60,
    appointment,
    client,
    lookups,
    relations,
    availability: doc.availability,
    doc
  }
}

type ValuesOfDoc = ({ resource: LookupName | 'client', column: string } | { table: string, column: string, where?: WhereDoc, joins?: Record<string, JoinDoc> }) & { names?: Record<string, string> }

/**
 * A lookup read as the distinct non-blank values of a column of other rows: another lookup's
 * (its `where`, its joins, and the relation to the rows holding each value, which follows from
 * the same row), the client's (related to no lookup: the client's own), or a table's own rows.
 */
function valuesOfLookup (name: LookupName, valuesOf: ValuesOfDoc, lookups: MappingModel['lookups'], client: ClientModel, r: MappingDoc['resources'], separator: string, fail: Fail):
  { lookup: LookupModel, relation?: RelationModel } | undefined {
  const path = `/resources/${name}`
  const at = `${path}/valuesOf`
  const column = valuesOf.column
  const columnPath = `${at}/column`
  const read: Value = { column, path: columnPath }
  const made = (source: { table: string, where: ConditionDoc[], wherePaths: string[], tablePath: string, joins: Record<string, JoinDoc>, joinsPath: string }, resource?: LookupName | 'client'): LookupModel => ({
    table: source.table,
    key: { column, type: 'text', parts: [{ column, type: 'text' }], separator },
    where: [...source.where, { column, blank: false }],
    // Each condition at its place: the source's own where it is written, the non-blank test at the column.
    wherePaths: [...source.wherePaths, columnPath],
    tablePath: source.tablePath,
    joins: source.joins,
    joinsPath: source.joinsPath,
    path,
    name,
    // A location's required address is its name again (no address is kept with a value).
    fields: name === 'location' ? { name: read, address: read } : { name: read },
    valuesOf: { ...resource !== undefined ? { resource } : {}, column, path: at, ...valuesOf.names !== undefined ? { names: valuesOf.names } : {} }
  })
  const wherePathsOf = (where: ConditionDoc[], doc: unknown, wherePath: string): string[] =>
    where.map((_, i) => `${wherePath}${Array.isArray(doc) ? `/${i}` : ''}`)
  if ('table' in valuesOf) {
    const where = whereList(valuesOf.where)
    return { lookup: made({ table: valuesOf.table, where, wherePaths: wherePathsOf(where, valuesOf.where, `${at}/where`), tablePath: `${at}/table`, joins: valuesOf.joins ?? {}, joinsPath: `${at}/joins` }) }
  }
  if (valuesOf.resource === 'client') {
    const clientWhere = r.client.where
    return { lookup: made({ ...client, wherePaths: wherePathsOf(client.where, clientWhere, `${client.path}/where`), tablePath: `${client.path}/table`, joinsPath: `${client.path}/joins` }, 'client') }
  }
  const source = lookups[valuesOf.resource]
  if (valuesOf.resource === name) { fail(`${at}/resource`, `the ${name}s are the values of another lookup's column, not of their own`); return undefined }
  if (!source || source.valuesOf) { fail(`${at}/resource`, `\`${valuesOf.resource}\` is not mapped under resources with a table of its own`); return undefined }
  if (source.key.parts.length > 1) { fail(`${at}/resource`, `the ${valuesOf.resource}'s key has several columns: relating each value to the row holding it needs a key of one`); return undefined }
  const sourceDoc = r[valuesOf.resource]
  const lookup = made({ ...source, wherePaths: wherePathsOf(source.where, sourceDoc !== undefined && 'where' in sourceDoc ? sourceDoc.where : undefined, `${source.path}/where`), tablePath: `${source.path}/table`, joinsPath: `${source.path}/joins` }, valuesOf.resource)
  return {
    lookup,
    relation: {
      between: [valuesOf.resource, name],
      path: at,
      kind: 'table',
      table: source.table,
      tablePath: lookup.tablePath,
      joins: source.joins,
      where: lookup.where,
      wherePaths: lookup.wherePaths,
      columns: [{ column: source.key.column, type: source.key.type, path: `${at}/resource` }, { ...read, type: 'text' }]
    }
  }
}

/** How deep values may nest (a coalesce of templates is 2): deeper is a mistake, not a need. */
export const MAX_VALUE_DEPTH = 8

/**
 * A column name or value object as a Value, and what is wrong with its sources or those of
 * the values it is made of, if anything (`at`: the path of the value that is wrong).
 */
export function asValue (v: ValueDoc, path: string, depth = 1): { value: Value, problem?: string, at?: string } {
  const value = valueAt(v, path)
  if (typeof v === 'object' && v.true !== undefined && v.trueValues !== undefined) {
    return { value, problem: 'has true and trueValues: give trueValues only (true is its old spelling)', at: `${path}/true` }
  }
  const misplaced = misplacedOption(value)
  if (misplaced) return { value, problem: misplaced, at: path }
  const pattern = value.extract === undefined ? undefined : extractProblem(value.extract)
  if (pattern) return { value, problem: pattern, at: `${path}/extract` }
  const split = splitProblem(value)
  if (split) return { value, problem: split.message, at: split.at }
  const present = SOURCES.filter((s) => value[s] !== undefined)
  const problem = present.length === 1
    ? undefined
    : present.length === 0 ? `needs one of ${SOURCES.join(', ')}` : `has ${present.join(' and ')}: give exactly one source`
  if (problem) return { value, problem, at: path }
  const codes = codesProblem(value, path)
  if (codes) return { value, ...codes }
  const rule = (value.rules ?? []).findIndex((r) => RULE_OUTCOMES.filter((o) => r[o] !== undefined).length > 1)
  if (rule >= 0) return { value, problem: `rule ${rule} has more than one outcome: give one of ${RULE_OUTCOMES.join(', ')}`, at: `${path}/rules/${rule}` }
  const parts = partsOf(value)
  if (parts.length > 0 && depth >= MAX_VALUE_DEPTH) {
    return { value, problem: `values nest more than ${MAX_VALUE_DEPTH} deep here: name the inner value once (a join, a simpler rule)`, at: parts[0].path }
  }
  for (const part of parts) {
    const inner = asValue(part, part.path, depth + 1)
    if (inner.problem) return { value, problem: inner.problem, at: inner.at }
  }
  return { value }
}

/** `codes` and `match` say how a map's codes compare: without a text map they would say nothing. */
function codesProblem (v: Value, path: string): { problem: string, at: string } | undefined {
  const keys = ['codes', 'match'] as const
  const given = keys.find((k) => v[k] !== undefined && v[k] !== (k === 'codes' ? 'anyCase' : 'whole'))
  if (given && !v.map) return { problem: `\`${given}\` says how the codes of a \`map\` compare: give the map beside it`, at: `${path}/${given}` }
  if (given && v.type !== undefined && !isTextType(v.type)) return { problem: `\`${given}\` is for text codes; a ${v.type} column's codes compare as numbers`, at: `${path}/${given}` }
  if (!v.map || (v.type !== undefined && !isTextType(v.type))) return undefined
  const twice = sameCodes(Object.keys(v.map), codeRule(v))
  if (twice) return { problem: `\`${twice[0]}\` and \`${twice[1]}\` are one code when case does not count: give \`codes: exact\` if the column tells them apart, or drop one`, at: `${path}/map` }
  return undefined
}

const TEXT_TYPES = new Set<SqlTypeName>(['text', 'ntext', 'char', 'nchar'])
export const isTextType = (t: SqlTypeName): boolean => TEXT_TYPES.has(t)

const RULE_OUTCOMES = ['value', 'column', 'template', 'coalesce', 'then'] as const

// Where the converters of ends and lengths are read: anywhere else they would be ignored.
const INCLUSIVE_AT = [/^\/resources\/appointment\/end\/(hour|datetime)$/, /^\/availability\/(weekly|dated)\/end$/, /^\/availability\/blocks(\/\d+)?\/(end|to)$/]
const PATTERN_AT = [/^\/resources\/appointment\/end\/duration$/, /^\/resources\/service\/fields\/duration$/]

const CLIENT_FIELD = '/resources/client/fields/'
const DECIMAL_AT = [/^\/resources\/[A-Za-z]+\/fields\/(?:price|duration|lat|long)$/, /^\/resources\/appointment\/end\/duration$/]

function misplacedOption (v: Value): string | undefined {
  if (v.inclusive !== undefined && !INCLUSIVE_AT.some((re) => re.test(v.path))) {
    return '`inclusive` goes on an end: an appointment\'s `end.hour` or `end.datetime`, or the `end` (or datetime `to`) of working hours and blocks'
  }
  if (v.pattern !== undefined && !PATTERN_AT.some((re) => re.test(v.path))) {
    return '`pattern` goes on a length: an appointment\'s `end.duration` or a service\'s `duration`'
  }
  if (v.pad !== undefined && (v.path !== CLIENT_FIELD + 'birthday' || v.template === undefined)) return '`pad` goes on a client\'s birthday kept in three columns (a `template` of day, month and year)'
  if (v.pad === 1 && v.format !== 'dmy') return '`pad: 1` writes `7` for July, which reads only as `format: dmy` (`{day}/{month}/{year}`): give `format: dmy`'
  if (v.split !== undefined && (v.path !== CLIENT_FIELD + 'name' || v.template === undefined)) return '`split` goes on a client\'s name written through a template (`{first_name} {last_name}`)'
  if (v.case !== undefined && v.path !== CLIENT_FIELD + 'name') return '`case` goes on the client\'s `name`'
  if (v.separator !== undefined && v.format !== 'dmy') return '`separator` says how a `format: dmy` date is spelt: give `format: dmy` beside it'
  if (v.decimal !== undefined && !DECIMAL_AT.some((re) => re.test(v.path))) return '`decimal` goes on a number kept as text: a `price`, a `duration`, `lat` or `long`'
  if (v.pattern !== undefined && (v.unit !== undefined || v.divide !== undefined)) return 'a `pattern` length is counted in characters × `per` minutes: leave out `unit` and `divide`'
  return undefined
}

/** A value as written in the mapping (a column name or an object), with its path; `true` read as its new spelling `trueValues`. */
export function valueAt (v: ValueDoc, path: string): Value {
  if (typeof v === 'string') return { column: v, path }
  if (v.true === undefined) return { ...v, path }
  const { true: old, ...rest } = v
  return { ...rest, trueValues: v.trueValues ?? old, path }
}

/**
 * The values a value is made of, with their own paths: coalesce items, composed rule
 * outcomes, the ends of `minutes`. Plain columns come back as `{ column }` values.
 */
export function partsOf (v: Value): Value[] {
  const out: Value[] = []
  v.coalesce?.forEach((c, i) => out.push(valueAt(c, `${v.path}/coalesce/${i}`)))
  v.rules?.forEach((r, i) => {
    const outcome = ruleOutcome(r, `${v.path}/rules/${i}`)
    if (outcome) out.push(outcome)
  })
  if (v.minutes) out.push(valueAt(v.minutes.from, `${v.path}/minutes/from`), valueAt(v.minutes.to, `${v.path}/minutes/to`))
  return out
}

/** A rule's outcome when it is composed (template, coalesce, `then`), as a value of its own. */
export function ruleOutcome (r: RuleDoc, path: string): Value | undefined {
  if (r.then !== undefined) return valueAt(r.then, `${path}/then`)
  if (r.template !== undefined) return { template: r.template, path: `${path}/template` }
  if (r.coalesce !== undefined) return { coalesce: r.coalesce, path: `${path}/coalesce` }
  return undefined
}

export function whereList (where: WhereDoc | undefined): ConditionDoc[] {
  if (where === undefined) return []
  return Array.isArray(where) ? where : [where]
}

/** Every test on a column in a condition, however its groups nest. */
export function leaves (c: ConditionDoc): ConditionLeafDoc[] {
  if ('all' in c) return c.all.flatMap(leaves)
  if ('any' in c) return c.any.flatMap(leaves)
  if ('not' in c) return leaves(c.not)
  return [c]
}

function mapValues<T, U> (obj: Record<string, T | undefined>, fn: (v: T, k: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined).map(([k, v]) => [k, fn(v as T, k)]))
}

type Fail = (path: string, message: string) => void

function stateSettings (doc: MappingDoc, fail: Fail): MappingModel['states'] {
  const s = doc.states ?? {}
  const values = s.values ?? DEFAULT_STATES
  const known = new Set(values)
  const initial = s.initial ?? 'WAITING'
  if (!known.has(initial)) fail('/states/initial', `\`${initial}\` is not one of the states (${values.join(', ')})`)
  const moves = s.moves ?? Object.fromEntries(values.map((v) => [v, values.filter((o) => o !== v)]))
  for (const [from, tos] of Object.entries(moves)) {
    if (!known.has(from)) fail(`/states/moves/${from}`, `\`${from}\` is not one of the states`)
    tos.forEach((to, i) => { if (!known.has(to)) fail(`/states/moves/${from}/${i}`, `\`${to}\` is not one of the states`) })
  }
  const onReschedule = s.onReschedule ?? initial
  if (onReschedule !== 'keep' && !known.has(onReschedule)) fail('/states/onReschedule', `\`${onReschedule}\` is neither \`keep\` nor one of the states`)
  const free = s.free ?? values.filter((v) => v === 'CANCELED')
  free.forEach((f, i) => { if (!known.has(f)) fail(`/states/free/${i}`, `\`${f}\` is not one of the states`) })
  return { values, initial, moves, onReschedule, free }
}

function checkStateValues (state: Value, values: string[], fail: Fail): void {
  const produced: { v: unknown, path: string }[] = []
  if (state.map) Object.entries(state.map).forEach(([k, v]) => produced.push({ v, path: `${state.path}/map/${k}` }))
  else if (state.rules) {
    state.rules.forEach((r, i) => {
      if (r.value !== undefined) produced.push({ v: r.value, path: `${state.path}/rules/${i}/value` })
      if (typeof r.then === 'object' && r.then.value !== undefined) produced.push({ v: r.then.value, path: `${state.path}/rules/${i}/then/value` })
    })
  } else if (state.value !== undefined) produced.push({ v: state.value, path: `${state.path}/value` })
  if (state.rules?.some((r) => r.column !== undefined || (r.then !== undefined && (typeof r.then !== 'object' || r.then.value === undefined))) && !state.map) fail(state.path, 'a state rule that returns a column needs a `map` to the state names')
  for (const p of produced) {
    if (typeof p.v !== 'string' || !values.includes(p.v)) fail(p.path, `\`${String(p.v)}\` is not one of the states (${values.join(', ')})`)
  }
}

function relation (rel: RelationDoc, path: string, declared: Set<EntityName>, appointment: AppointmentModel,
  value: (v: ValueDoc, path: string) => Value, fail: Fail): RelationModel {
  const [a, b] = rel.between
  for (const side of rel.between) if (!declared.has(side)) fail(`${path}/between`, `\`${side}\` is not mapped under resources`)
  if (a === b) fail(`${path}/between`, 'a relation joins two different resources')
  const kinds = [rel.table !== undefined, rel.via !== undefined, rel.through !== undefined].filter(Boolean).length
  if (kinds !== 1) fail(path, 'give exactly one of `table` (with `columns`), `via` or `through`')
  if (rel.via) {
    for (const side of rel.between) if (!appointment.refs[side]) fail(`${path}/between`, `\`via: appointment\` needs appointment refs.${side}`)
    return { between: [a, b], path, kind: 'via' }
  }
  if (rel.through) {
    if (a === 'client' || b === 'client' || rel.through === 'client') fail(`${path}/through`, 'relations of clients are read per request: use `table` or `via`, not `through`')
    return { between: [a, b], path, kind: 'through', through: rel.through }
  }
  const cols = rel.columns ?? {}
  for (const side of rel.between) if (!cols[side]) fail(`${path}/columns`, `missing the column holding the ${side} id`)
  return {
    between: [a, b],
    path,
    kind: 'table',
    table: rel.table ?? '',
    joins: rel.joins ?? {},
    where: whereList(rel.where),
    columns: [value(cols[a] ?? '', `${path}/columns/${a}`), value(cols[b] ?? '', `${path}/columns/${b}`)]
  }
}

function checkRelationsAcyclic (relations: RelationModel[], fail: Fail): void {
  const pairs = new Set(relations.map((r) => pairKey(r.between[0], r.between[1])))
  for (const r of relations) {
    if (r.kind !== 'through') continue
    for (const side of r.between) {
      if (!pairs.has(pairKey(side, r.through))) fail(r.path, `\`through: ${r.through}\` needs a relation between ${side} and ${r.through}`)
    }
  }
  // Two sources of one pair of lookups are their union (shifts and schedule blocks both place
  // a professional); a client's relations are read per request from one source.
  const seen = new Set<string>()
  for (const r of relations) {
    const k = pairKey(r.between[0], r.between[1])
    if (seen.has(k) && r.between.includes('client')) fail(r.path, `${r.between.join(' and ')} are already related above: a relation of clients has one source`)
    seen.add(k)
  }
}

export function pairKey (a: EntityName, b: EntityName): string {
  return [a, b].sort().join('~')
}

function checkJoins (t: TableModel & { joinsPath?: string }, fail: Fail): void {
  const at = t.joinsPath ?? `${t.path}/joins`
  for (const [alias, j] of Object.entries(t.joins)) {
    if (j.from !== undefined && !(j.from in t.joins)) fail(`${at}/${alias}/from`, `no join called \`${j.from}\``)
    if (Object.keys(j.on).length === 0) fail(`${at}/${alias}/on`, 'a join needs at least one column pair')
  }
}

function markerOf (m: NonNullable<MappingDoc['resources']['appointment']['changes']>['marker'], path: string): MarkerModel | undefined {
  if (m === undefined) return undefined
  const inserts = m.inserts ?? false
  return { column: m.column, type: m.type ?? (inserts ? 'int' : 'datetime'), inserts, windowEvery: m.windowEvery ?? 10, path }
}

/** The slot join (`write.slot.join`) a column is read through, itself or by a join hanging below it; undefined when it is not. */
function throughSlot (appointment: AppointmentModel, column: string | undefined): string | undefined {
  const alias = appointment.write?.slot?.join
  if (alias === undefined || column === undefined || !column.includes('.')) return undefined
  // Up the `from` chain from the column's join; a join appears once on it, so this ends.
  let at: string | undefined = column.slice(0, column.indexOf('.'))
  for (let depth = 0; at !== undefined && depth <= Object.keys(appointment.joins).length; depth++) {
    if (at === alias) return alias
    at = appointment.joins[at]?.from
  }
  return undefined
}

/**
 * Rows that take the appointment's key take its id: with `generate: uuid` that is the uuid,
 * which an integer link (a status history's `appointment_id`) cannot hold.
 */
function checkUuidKeys (appointment: AppointmentModel, fail: Fail): void {
  if (appointment.write?.key?.generate !== 'uuid' || appointment.write.history === undefined) return
  fail(`${appointment.path}/write/history/key`, `the history's \`${appointment.write.history.key}\` would take the appointment's id, a generated uuid (\`write.key: { generate: uuid }\`): a history keyed by the integer id beside the uuid is not supported; keep the appointment's integer key, or drop \`history\``)
}

/** A ref's default (`write.refs.<ref>.otherwise`) is an id of a ref the appointment maps, one its column can hold. */
function checkRefDefaults (appointment: AppointmentModel, lookups: MappingModel['lookups'], fail: Fail): void {
  const client = appointment.write?.refs?.client
  // The client a booking names is the one it books: no default, no `owner` of its own rows.
  for (const extra of ['otherwise', 'fromClient'] as const) {
    if (client?.[extra] !== undefined) fail(`${appointment.path}/write/refs/client/${extra}`, `a booking always names its client: \`${extra}\` is for other refs (the client takes only \`firstOf: <join>\`)`)
  }
  if (typeof client?.firstOf === 'object') fail(`${appointment.path}/write/refs/client/firstOf`, 'the client is written through a join as `firstOf: <join>` (the join\'s alias): `owner` is for rows belonging to the client')
  for (const [name, entry] of Object.entries(appointment.write?.refs ?? {})) {
    if (name === 'client') continue
    if (entry?.otherwise === undefined) continue
    const at = `${appointment.path}/write/refs/${name}/otherwise`
    const ref = appointment.refs[name as EntityName]
    if (!ref) { fail(at, `the appointment has no ${name} (refs.${name}) for a default to be stored in`); continue }
    const slot = throughSlot(appointment, ref.column)
    if (slot !== undefined) {
      fail(at, `${name} is read through the slot \`${slot}\` (${ref.column}) that a booking finds by its time (write.slot), so the slot decides it and a default would never be stored; remove \`otherwise\` (a booking naming no ${name} takes the first slot free at its time)`)
      continue
    }
    const lookup = name === 'plan' ? undefined : lookups[name as LookupName]
    const type = ref.type ?? (name === 'plan' ? 'text' : lookup ? idType(lookup.key) : 'int')
    if (!matchesType(String(entry.otherwise), type)) fail(at, `"${String(entry.otherwise)}" cannot be stored in the ref's ${type} column`)
  }
}
