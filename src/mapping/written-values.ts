// The semantic checks of what writes put in columns on their own (`write.set`, `update`,
// `states`, `claim`…): a copy of what a booking names only where a booking writes (the client
// is read when the appointment is booked, never on a state change), from something the
// mapping has, a copy of a written phone only in its phone row, a copy of the working hours
// only where the time is written (booking and every move), the row as a change found it only
// in the row written before the change, and stamps and copies never into a column the mapping
// reads as something else.
import type { MappingDoc, WriteSpecDoc } from './schema.js'
import { isTimeZone } from '../normalise/zones.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
type Entries = Record<string, WriteValueDoc> | undefined
type Fail = (path: string, message: string) => void

const COPIED = ['client', 'service', 'professional', 'location', 'healthInsurance'] as const

/** `column` → what the mapping reads from it, for a table's own columns (lower case). */
type Readers = Map<string, string>

/** `states`: the installation's states, each of which a code per state (`{ state: { … } }`) must name. */
export function checkWrittenValues (doc: MappingDoc, states: string[], fail: Fail): void {
  const r = doc.resources
  const a = r.appointment
  const c = r.client
  const aw = a.write
  const cw = c.write
  const ap = '/resources/appointment'
  const cp = '/resources/client'
  const own = { appointment: readersOf(a), client: readersOf(c) }
  // Where a booking writes the row: the insert, and the claim of an open slot.
  const booking = [{ at: `${ap}/write/set`, entries: aw?.set }, { at: `${ap}/openSlots/claim`, entries: a.openSlots?.claim }]
  const elsewhere: { at: string, entries: Entries, readers?: Readers }[] = [
    { at: `${ap}/write/update`, entries: aw?.update, readers: own.appointment },
    { at: `${ap}/write/reschedule`, entries: aw?.reschedule, readers: own.appointment },
    ...Object.entries(aw?.states ?? {}).map(([s, e]) => ({ at: `${ap}/write/states/${s}`, entries: e, readers: own.appointment })),
    { at: `${ap}/openSlots/release`, entries: a.openSlots?.release, readers: own.appointment },
    { at: `${ap}/write/history/open`, entries: aw?.history?.open },
    { at: `${ap}/write/history/close`, entries: aw?.history?.close },
    { at: LEFT, entries: aw?.history?.left },
    { at: AFTER, entries: aw?.history?.after },
    ...(aw?.log ?? []).map((row, i) => ({ at: `${ap}/write/log/${i}/set`, entries: row.set })),
    ...(aw?.stateRows ?? []).flatMap((row, i) => [{ at: `${ap}/write/stateRows/${i}/set`, entries: row.set }, { at: `${ap}/write/stateRows/${i}/clear`, entries: row.clear }]),
    ...extraRows(aw, `${ap}/write`),
    { at: `${cp}/write/set`, entries: cw?.set, readers: own.client },
    { at: `${cp}/write/update`, entries: cw?.update, readers: own.client },
    ...extraRows(cw, `${cp}/write`)
  ]
  for (const { at, entries } of [...booking, ...elsewhere]) {
    for (const [column, w] of Object.entries(entries ?? {})) {
      if ('phone' in w && !phoneRow(cw, at)) fail(`${at}/${column}/phone`, '`phone` is written only in an `after` row of `phones` (`- phones: 0`), whose phone it copies; the booked client\'s phone in an appointment column is `{ client: phone }`')
      leftProblem(doc, w, at === LEFT, states, `${at}/${column}`, fail)
      afterProblem(doc, w, at, `${at}/${column}`, fail)
      if (!('state' in w) || typeof w.state !== 'object') continue
      // Only rows written on entering a state know which state it is.
      if (!/\/write\/(history|stateRows|log)\//.test(at)) fail(`${at}/${column}/state`, 'a code per state is written where a state is entered: under write.history or write.stateRows, or a write.log row (the appointment\'s own columns take write.states)')
      else stateCodesProblem(w.state, states, `${at}/${column}/state`, fail)
    }
  }
  rowUpdateProblems(cw, `${cp}/write`, true, fail)
  rowUpdateProblems(aw, `${ap}/write`, false, fail)
  for (const { at, entries } of booking) {
    for (const [column, w] of Object.entries(entries ?? {})) {
      const path = `${at}/${column}`
      const from = COPIED.find((k) => k in w)
      if (from !== undefined) copyProblem(doc, w, from, path, fail)
      if ('hours' in w) hoursProblem(doc, w, at, path, fail)
      if (at.endsWith('/openSlots/claim') || !lengthCopyProblem(doc, w, column, path, fail)) stampProblem(w, column, own.appointment, path, fail)
    }
  }
  for (const { at, entries, readers } of elsewhere) {
    for (const [column, w] of Object.entries(entries ?? {})) {
      const path = `${at}/${column}`
      const from = COPIED.find((k) => k in w)
      if (from !== undefined) {
        fail(`${path}/${from}`, `a copy of the booked ${from} is written when an appointment is booked: it goes under the appointment's write.set (or openSlots.claim), not here (a state change or a correction does not name the ${from})`)
        continue
      }
      if ('hours' in w) {
        fail(`${path}/hours`, 'a copy of the working hours covering the booked time goes under the appointment\'s write.set: it is written on booking and rewritten on every reschedule, from the row covering the new time')
        continue
      }
      if (readers) stampProblem(w, column, readers, path, fail)
    }
  }
}

// A state with no code would leave its column without one, and a key no state has is a typo.
function stateCodesProblem (codes: Record<string, unknown>, states: string[], path: string, fail: Fail): void {
  for (const key of Object.keys(codes)) if (!states.includes(key)) fail(`${path}/${key}`, `\`${key}\` is not one of the states (${states.join(', ')})`)
  const missing = states.filter((s) => !(s in codes))
  if (missing.length > 0) fail(path, `no code for ${missing.join(', ')}: every state an appointment can enter writes one`)
}

// Where `left` rows are written: before a change, the appointment row still as it was.
const LEFT = '/resources/appointment/write/history/left'

/**
 * What only a row written before a change can say (`{ before: column }`, `{ state: left }`),
 * nowhere else; and in such a row, nothing only a booking knows (its slot, the new key).
 */
function leftProblem (doc: MappingDoc, w: WriteValueDoc, left: boolean, states: string[], path: string, fail: Fail): void {
  if ('before' in w) {
    if (!left) fail(`${path}/before`, '`before` is the appointment row as a change found it: it is written only under write.history.left (a row added before each change; a booking has no row before it)')
    for (const key of ['before', 'otherwise'] as const) {
      const column = w[key]
      if (column?.includes('.') === true) fail(`${path}/${key}`, `\`${column}\` is a joined column: \`${key}\` copies a column of the appointment's own table (${doc.resources.appointment.table})`)
    }
  }
  if ('codes' in w && w.codes !== undefined && w.state !== 'left') fail(`${path}/codes`, '`codes` names the code of each state left: it goes with `state: left`')
  if ('state' in w && w.state === 'left') {
    if (!left) fail(`${path}/state`, '`state: left` is the state a change leaves: it is written only under write.history.left (a booking, or a state entered, leaves none)')
    else if (w.codes !== undefined) stateCodesProblem(w.codes, states, `${path}/codes`, fail)
    else if (readByRules(doc)) fail(`${path}/state`, 'the state is read by `rules`, which have no codes to write back: give the code of each state left (`codes: { WAITING: …, … }`), or copy the status column as it was (`{ before: status }`)')
  }
  if (!left) return
  const booked = 'slot' in w ? 'slot' : 'newKey' in w ? 'newKey' : 'identifier' in w ? 'identifier' : undefined
  if (booked !== undefined) fail(`${path}/${booked}`, `\`${booked}\` is made when a row is booked or inserted; a \`left\` row records what a change leaves: copy the appointment's columns as they were (\`{ before: column }\`)`)
}

// Where `after` rows are written: after a change (the booking too), the row as it left it.
const AFTER = '/resources/appointment/write/history/after'
const EVENTS = ['create', 'state', 'reschedule'] as const
const LOG = /^\/resources\/appointment\/write\/log\/(\d+)\/set$/

/** The changes that add the row written at `at`: a history row's `on`, a log row's own. */
function addedBy (doc: MappingDoc, at: string): { on: readonly string[], by: string } | undefined {
  const aw = doc.resources.appointment.write
  const i = LOG.exec(at)?.[1]
  if (i !== undefined) return { on: aw?.log?.[Number(i)]?.on ?? ['create'], by: `write.log[${i}].on` }
  if (at !== AFTER && at !== LEFT) return undefined
  const on = aw?.history?.on ?? (at === LEFT ? ['state'] : [...EVENTS])
  return { on: on.filter((e) => at === AFTER || e !== 'create'), by: 'write.history.on' }
}

/**
 * `{ after: column }` only in an `after` row, `{ event: … }` only in a row a change adds,
 * with a code for each change that adds it; and in an `after` row nothing the booking makes
 * (the row holds it: copy it).
 */
function afterProblem (doc: MappingDoc, w: WriteValueDoc, at: string, path: string, fail: Fail): void {
  const after = at === AFTER || LOG.test(at)
  if ('after' in w) {
    if (!after) fail(`${path}/after`, '`after` is the appointment row as a change left it: it is written only under write.history.after or write.log (rows added after each change, the booking included)')
    else if (w.after.includes('.')) fail(`${path}/after`, `\`${w.after}\` is a joined column: \`after\` copies a column of the appointment's own table (${doc.resources.appointment.table})`)
  }
  if ('event' in w) {
    const added = addedBy(doc, at)
    if (added === undefined) fail(`${path}/event`, '`event` says which change added a history row: it is written only under write.history.after or write.history.left, or write.log')
    else {
      const codes = w.event as Partial<Record<typeof EVENTS[number], unknown>>
      for (const e of EVENTS) if (codes[e] !== undefined && !added.on.includes(e)) fail(`${path}/event/${e}`, `no \`${e}\` adds this row (${added.by}: ${added.on.join(', ')})`)
      const missing = added.on.filter((e) => codes[e as typeof EVENTS[number]] === undefined)
      if (missing.length > 0) fail(`${path}/event`, `no code for ${missing.join(', ')}: every change that adds the row writes one`)
    }
  }
  if (!after) return
  const booked = 'slot' in w ? 'slot' : 'newKey' in w ? 'newKey' : 'identifier' in w ? 'identifier' : undefined
  if (booked !== undefined) fail(`${path}/${booked}`, `\`${booked}\` is made when a row is booked or inserted; ${at === AFTER ? 'an `after` row' : 'a log row'} copies the appointment as the change left it: copy the appointment's column (\`{ after: column }\`)`)
}

/** Whether the appointment's state is decided by `rules` alone, with no code map to write back through. */
function readByRules (doc: MappingDoc): boolean {
  const state = doc.resources.appointment.state
  return typeof state === 'object' && state.rules !== undefined && state.map === undefined
}

function extraRows (w: WriteSpecDoc | undefined, at: string): { at: string, entries: Entries }[] {
  const rows = [...(w?.before ?? []).map((row, i) => ({ row, at: `${at}/before/${i}` })), ...(w?.after ?? []).map((row, i) => ({ row, at: `${at}/after/${i}` }))]
  return rows.flatMap(({ row, at }) => [{ at: `${at}/set`, entries: row.set }, ...row.update ? [{ at: `${at}/update`, entries: row.update }] : []])
}

/** A row's `update` stamps go on a client's joined row, which a PATCH of a field kept there changes. */
function rowUpdateProblems (w: WriteSpecDoc | undefined, at: string, client: boolean, fail: Fail): void {
  const rows = [...(w?.before ?? []).map((row, i) => ({ row, at: `${at}/before/${i}` })), ...(w?.after ?? []).map((row, i) => ({ row, at: `${at}/after/${i}` }))]
  for (const { row, at } of rows) {
    if (row.update === undefined) continue
    if (!client) fail(`${at}/update`, '`update` stamps a client\'s joined row when a PATCH /clients changes it: an appointment\'s change stamps its own row (write.update)')
    else if (row.join === undefined) fail(`${at}/update`, 'a PATCH /clients never changes a phone row (phones are written with a new client only), so nothing would stamp it: `update` goes on a `join` row')
  }
}

/** Whether `at` is the `set` of a client's `after` row writing a phone. */
function phoneRow (w: WriteSpecDoc | undefined, at: string): boolean {
  const i = /^\/resources\/client\/write\/after\/(\d+)\/set$/.exec(at)?.[1]
  const row = i === undefined ? undefined : w?.after?.[Number(i)]
  return row !== undefined && row.join === undefined && row.phones !== undefined
}

function copyProblem (doc: MappingDoc, w: WriteValueDoc, from: typeof COPIED[number], path: string, fail: Fail): void {
  const refs = doc.resources.appointment.refs ?? {}
  if (refs[from] === undefined) {
    fail(`${path}/${from}`, `the appointment has no \`refs.${from}\`, so a booking names no ${from} to copy from`)
    return
  }
  const phone = (w as { client?: string }).client === 'phone'
  if (phone && (doc.resources.client.phones ?? []).length === 0) fail(`${path}/client`, 'the client has no `phones` mapped, so there is no phone to copy')
  for (const key of ['format', 'otherwise'] as const) {
    if (from === 'client' && key in w && !phone) fail(`${path}/${key}`, `\`${key}\` goes with \`client: phone\` (how the phone is written, and what is written without one)`)
  }
  if (phone && 'case' in w && w.case !== undefined) fail(`${path}/case`, '`case` goes with a name: a phone has no letters')
  if (from !== 'client' && (w as Record<string, unknown>)[from] === 'name' && doc.resources[from] === undefined) {
    fail(`${path}/${from}`, `no ${from} is mapped under resources, so its name cannot be read (copy its \`id\` instead, or map resources.${from})`)
  }
  const part = (w as Record<string, unknown>)[from]
  if (from !== 'client' && typeof part === 'object' && part !== null) lookupColumnProblem(doc, from, (part as { column: string }).column, `${path}/${from}`, fail)
  if ('separator' in w && w.separator !== undefined && (w as { client?: string }).client !== 'familyFirst') {
    fail(`${path}/separator`, '`separator` goes with `client: familyFirst` (what goes between the family and the given name)')
  }
}

/** `{ service: { column: Pattern } }`: a column of the lookup's own row, which it must have. */
function lookupColumnProblem (doc: MappingDoc, from: Exclude<typeof COPIED[number], 'client'>, column: string, path: string, fail: Fail): void {
  const lookup = doc.resources[from]
  if (lookup === undefined) fail(path, `no ${from} is mapped under resources, so there is no row to copy \`${column}\` from (copy its \`id\` instead, or map resources.${from})`)
  else if ('valuesOf' in lookup) fail(path, `the ${from} is kept as the values of ${'resource' in lookup.valuesOf ? lookup.valuesOf.resource : lookup.valuesOf.table}.${lookup.valuesOf.column}: it has no row of its own to copy \`${column}\` from (copy its \`name\` or \`id\`)`)
  else if (column.includes('.')) fail(`${path}/column`, `\`${column}\` is a joined column: \`column\` copies a column of the ${from}'s own table (${lookup.table})`)
}

/**
 * `{ service: { column: Pattern } }` into the column the appointment reads as its length
 * (Open Dental's `Pattern`): the booking writes the booked length there too, so the copy is
 * taken only where both are one pattern by construction — the service's length read from that
 * very column at the same `per`, and nothing else written where the service has no pattern.
 */
function lengthCopyProblem (doc: MappingDoc, w: WriteValueDoc, column: string, path: string, fail: Fail): boolean {
  const duration = doc.resources.appointment.end?.duration
  const lengthColumn = typeof duration === 'object' ? duration.column : duration
  if (typeof lengthColumn !== 'string' || lengthColumn.toLowerCase() !== column.toLowerCase()) return false
  const part = COPIED.map((k) => (w as Record<string, unknown>)[k]).find((p) => p !== undefined)
  if (typeof part !== 'object' || part === null) return false
  const copied = (part as { column: string }).column
  const lookup = doc.resources.service
  const service = lookup !== undefined && 'fields' in lookup ? lookup.fields?.duration : undefined
  const per = typeof duration === 'object' ? duration.pattern?.per : undefined
  const servicePer = typeof service === 'object' ? service.pattern?.per : undefined
  const fix = `the booked length is written into \`${column}\` too: copy the service's pattern there only with the service's \`duration: { column: ${copied}, pattern: { per: ${per ?? 5} } }\` and the appointment's \`end.duration\` a \`pattern\` of the same \`per\`, so the copy stands for the length booked`
  if (!('service' in w)) fail(path, `column \`${column}\` holds the appointment's length, which comes from the booked service: a copy of the ${COPIED.find((k) => k in w) ?? ''}'s \`${copied}\` there would contradict it (name the column that keeps the copy)`)
  else if (per === undefined || servicePer !== per || typeof service !== 'object' || service.column !== copied) fail(path, `column \`${column}\` holds the appointment's length: ${fix}`)
  else if ('otherwise' in w && w.otherwise !== undefined) fail(`${path}/otherwise`, `where the service has no \`${copied}\`, the booked length's own pattern is written into \`${column}\`: \`otherwise\` would contradict it`)
  return true
}

/**
 * `{ hours: SALA }`: there are working hours to copy from (a weekly or dated source: open
 * slots' free rows are the row claimed itself), and a joined column names a join of each.
 */
function hoursProblem (doc: MappingDoc, w: WriteValueDoc, at: string, path: string, fail: Fail): void {
  const { hours, otherwise, type } = w as { hours: string, otherwise?: unknown, type?: string }
  if (at.endsWith('/openSlots/claim')) {
    fail(`${path}/hours`, 'open slots are their own working hours (beside openSlots, availability.weekly and dated are left out): a claim has no working-hours row to copy from, and the free row it claims already holds what its slot was made with')
    return
  }
  const av = doc.availability
  const sources = (['weekly', 'dated'] as const).filter((s) => av?.[s] !== undefined)
  if (sources.length === 0) {
    fail(`${path}/hours`, 'no working hours are mapped (availability.weekly or availability.dated): there is no row covering the booked time to copy from')
    return
  }
  const dot = hours.indexOf('.')
  if (dot >= 0) {
    const alias = hours.slice(0, dot)
    for (const s of sources) {
      if (av?.[s]?.joins?.[alias] === undefined) fail(`${path}/hours`, `\`${hours}\`: no join called \`${alias}\` in /availability/${s}/joins (the copy is read from the covering row of each working-hours source)`)
    }
  }
  // The bind type the mapping gives must hold `otherwise`.
  if (typeof otherwise === 'string' && type !== undefined && INTEGERS.has(type) && !/^-?\d+$/.test(otherwise)) fail(`${path}/otherwise`, `\`${otherwise}\` is not a whole number, and the copy binds as ${type}`)
}

const INTEGERS = new Set(['int', 'bigint', 'smallint', 'bit'])

function stampProblem (w: WriteValueDoc, column: string, readers: Readers, path: string, fail: Fail): void {
  const stamp = 'now' in w
  if (stamp && w.storedIn !== undefined && !isTimeZone(w.storedIn)) fail(`${path}/storedIn`, `\`${w.storedIn}\` is not an IANA time zone (such as UTC, America/Sao_Paulo)`)
  if (!stamp && !COPIED.some((k) => k in w) && !('hours' in w)) return
  const read = readers.get(column.toLowerCase())
  if (read === undefined) return
  const what = stamp ? 'a `now` stamp writes a date or time' : 'hours' in w ? 'a copy of the working hours writes their row\'s value' : 'a copy writes a name or id'
  fail(path, `column \`${column}\` holds ${read}: ${what} there, which would overwrite it (name the column that keeps the ${stamp ? 'stamp' : 'copy'})`)
}

/** The plain columns of a resource's own table the mapping reads as something that is not a stamp or copy. */
function readersOf (t: MappingDoc['resources']['appointment'] | MappingDoc['resources']['client']): Readers {
  const out: Readers = new Map()
  const put = (v: unknown, what: string): void => {
    const column = typeof v === 'string' ? v : typeof v === 'object' && v !== null ? (v as { column?: unknown }).column : undefined
    if (typeof column === 'string' && !column.includes('.')) out.set(column.toLowerCase(), what)
  }
  for (const k of Array.isArray(t.key) ? t.key : [t.key]) put(k, 'the key')
  if ('state' in t) {
    put(t.state, 'the appointment\'s state')
    for (const [ref, v] of Object.entries(t.refs ?? {})) put(v, `the ${ref}'s id`)
    put(t.end?.duration, 'the appointment\'s length')
    put(t.classification, 'the classification')
  } else {
    for (const [field, v] of Object.entries(t.fields)) if (field !== 'birthday') put(v, `the client's ${field}`)
    for (const v of t.phones ?? []) put(v, 'a phone')
  }
  return out
}
