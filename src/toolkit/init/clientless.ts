// Rows of the appointment table that name no client, and what they are: open slots the
// clinic's program made ahead (GNU Health's `free` rows: `openSlots`, booked by claiming
// them); a provider's own time (OpenEMR's In Office, Lunch, Vacation events: `slotHolding`,
// never listed, never offered), told apart by a state, a visit type or a category no row with
// a client has; or walk-ins booked without a record, listed as appointments without a client.
import type { Row } from '../../db/database.js'
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Samples } from './sample.js'
import { ident } from './tables.js'
import { asText } from './values.js'

export interface Clientless {
  /** Lines at the appointment's indentation (`openSlots:`, `slotHolding:`) or comments. */
  lines: string[]
  /** The client ref's `nullIf`, where rows hold 0 for none. */
  nullIf?: string
  /** The code of the open slots, left out of the state map. */
  openSlot?: string
}

/** Columns whose values may say what a row without a client is: its state, its kind of visit, its category. */
const KIND_NAME = /(type|tipo|kind|categ|class|catid)/i

export interface ClientlessInput {
  table: LiveTable
  client: LiveColumn
  /** Keys of the client table sampled, to tell a 0 meaning none from a client numbered 0. */
  clientKeys: Set<string>
  state?: LiveColumn
  /** Every row's state code counted, over all rows and over those naming no client: the whole table, not a sample. */
  stateCounts?: { all: Map<string, number>, without: Map<string, number> }
  /** The state code read as an open slot (`free`), if any. */
  freeCode?: string
  /** Other columns the draft reads as refs (the service, the location): a category kept only by such rows. */
  refs: LiveColumn[]
}

export function clientless (samples: Samples, input: ClientlessInput): Clientless {
  const rows = samples.records(input.table) ?? []
  const { client, state, stateCounts: counts } = input
  const get = (r: Row, c: LiveColumn): unknown => r[c.name.toLowerCase()]
  const kinds = { nulls: false, blanks: false, zeros: false }
  const none = (r: Row): boolean => {
    const v = get(r, client)
    if (v === null || v === undefined) { kinds.nulls = true; return true }
    const text = asText(v)
    if (text === '') { kinds.blanks = true; return true }
    if (text === '0' && !input.clientKeys.has('0')) { kinds.zeros = true; return true }
    return false
  }
  const without = rows.filter(none)
  const total = counts === undefined ? without.length : [...counts.without.values()].reduce((a, n) => a + n, 0)
  const nullIf = kinds.zeros ? (client.kind === 'number' ? '0' : '\'0\'') : undefined
  if (total === 0) return { lines: [] }
  // None sampled, some counted: NULL for a number, blank for text (which covers NULL).
  if (!kinds.nulls && !kinds.blanks && !kinds.zeros) kinds[client.kind === 'number' ? 'nulls' : 'blanks'] = true
  const noClient = condition(client, kinds)
  const lines: string[] = []
  let rest = total
  let openSlot: string | undefined
  const st = state
  const free = input.freeCode
  if (free !== undefined && st !== undefined) {
    const n = counts?.all.get(free) ?? rows.filter((r) => asText(get(r, st)) === free).length
    const bare = counts?.without.get(free) ?? rows.filter((r) => asText(get(r, st)) === free && without.includes(r)).length
    if (n > 0 && bare === n) {
      openSlot = free
      rest -= n
      lines.push(`    openSlots:   # guess: ${n} rows in state ${free}, none with a client: slots the clinic's program made ahead, booked by claiming one (docs/mapping.md#open-slots-kept-as-rows-booked-by-claiming-them)`,
        `      free: [${noClient}, { column: ${ident(st.name)}, eq: ${JSON.stringify(free)} }]`,
        '      onCancel: keep   # TODO: a cancelled booking keeps its row and the slot stays closed; `release` frees the row again, `reopen` adds a new free row: say what the clinic\'s program does')
    }
  }
  if (rest <= 0) return { lines, nullIf, openSlot }
  const apart = stateApart(counts, openSlot, st) ?? columnApart(rows, without, st, input, openSlot)
  if (apart !== undefined) {
    const values = apart.values.sort(byNumber)
    const parts = [noClient, ...openSlot !== undefined && st !== undefined ? [`{ column: ${ident(st.name)}, ne: ${JSON.stringify(openSlot)} }`] : [],
      ...apart.others > 0 ? [`{ column: ${ident(apart.column)}, in: [${values.map((v) => apart.number ? v : JSON.stringify(v)).join(', ')}] }`] : []]
    const held = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`
    const n = rest - apart.others
    lines.push(`    slotHolding: ${held}   # guess: ${n} ${n === 1 ? 'row names' : 'rows name'} no client, and ${apart.column} ${values.join(', ')} occurs on no other row: ` +
      'a provider\'s own time (a lunch, a meeting, a day closed), never listed as an appointment, never offered' +
      (apart.others > 0 ? `; ${apart.others} other${apart.others === 1 ? '' : 's'} without a client, of a ${apart.column} rows with a client have too, listed as appointments without a client (walk-ins)` : ''))
  } else {
    lines.push(`    # ${rest} ${rest === 1 ? 'row names' : 'rows name'} no client (${client.name}), in the states and kinds of the other rows: listed as appointments without a client (walk-ins); ` +
      'if they only hold time, declare them under slotHolding (docs/mapping.md)')
  }
  return { lines, nullIf, openSlot }
}

/** The values that set a provider's own time apart, and how many rows naming no client hold another (walk-ins). */
interface Apart { column: string, values: string[], others: number, number?: boolean }

/** The state codes of the rows naming no client (open slots aside), where no row with a client holds them: counted over the whole table. */
function stateApart (counts: ClientlessInput['stateCounts'], openSlot: string | undefined, state: LiveColumn | undefined): Apart | undefined {
  if (counts === undefined || state === undefined) return undefined
  const codes = [...counts.without].filter(([c, n]) => c !== openSlot && n > 0)
  return codes.length > 0 && codes.every(([c, n]) => counts.all.get(c) === n) ? { column: state.name, values: codes.map(([c]) => c), others: 0 } : undefined
}

/** A kind, category or ref column whose sampled values on the rows naming no client occur on no other row. */
function columnApart (rows: Row[], without: Row[], state: LiveColumn | undefined, input: ClientlessInput, openSlot: string | undefined): Apart | undefined {
  const get = (r: Row, c: LiveColumn): unknown => r[c.name.toLowerCase()]
  const rest = without.filter((r) => state === undefined || openSlot === undefined || asText(get(r, state)) !== openSlot)
  if (rest.length === 0) return undefined
  const withClient = rows.filter((r) => !without.includes(r))
  const found = [...state ? [state] : [], ...input.refs, ...[...input.table.columns.values()].filter((c) => KIND_NAME.test(c.name) && !input.refs.includes(c) && c !== state)]
    .map((c) => ({ c, own: distinct(rest, c), shared: new Set(withClient.map((r) => asText(get(r, c)))) }))
    .filter((x) => x.own.size > 0 && x.own.size <= 30 && !rest.some((r) => blank(get(r, x.c))))
    // Values on no row with a client (OpenEMR's In Office, Lunch), holding three in four such rows or more: a few walk-ins may share a visit's category.
    .map((x) => ({ ...x, apart: [...x.own].filter((v) => !x.shared.has(v)), others: rest.filter((r) => x.shared.has(asText(get(r, x.c)))).length }))
    .find((x) => x.apart.length > 0 && x.others * 4 <= rest.length)
  return found === undefined ? undefined : { column: found.c.name, values: found.apart, others: found.others, number: found.c.kind === 'number' }
}

function condition (c: LiveColumn, kinds: { nulls: boolean, blanks: boolean, zeros: boolean }): string {
  const col = ident(c.name)
  const parts = [
    ...kinds.blanks && c.kind !== 'number' ? [`{ column: ${col}, blank: true }`] : kinds.nulls ? [`{ column: ${col}, isNull: true }`] : [],
    ...kinds.zeros ? [`{ column: ${col}, eq: ${c.kind === 'number' ? '0' : '\'0\''} }`] : []
  ]
  return parts.length === 1 ? parts[0] : `{ any: [${parts.join(', ')}] }`
}

const blank = (v: unknown): boolean => v === null || v === undefined || asText(v) === ''
const distinct = (rows: Row[], c: LiveColumn): Set<string> => new Set(rows.map((r) => r[c.name.toLowerCase()]).filter((v) => !blank(v)).map(asText))
const byNumber = (a: string, b: string): number => Number(a) - Number(b) || a.localeCompare(b)
