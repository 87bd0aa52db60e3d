// The appointment's `state` as drafted: every stored code (and every code its label table
// lists) mapped to the state its label or its own name says. A code nothing explains is mapped
// to WAITING, the state that keeps holding its slot, with a TODO naming it and its rows: the
// draft then reads every row and never offers a slot one of them may hold, and a human says
// what it means. Where several codes read as one state, `write.states` names the one a write
// stores: the column's default for WAITING (what the clinic's program gives a new row), else a
// code whose label says the state itself, else the code most rows ahead of today hold.
import type { LiveColumn } from '../../db/columns.js'
import type { CodeLabels } from './code-labels.js'
import { readState, type Reading, type State } from './state-words.js'
import { ident } from './tables.js'

export interface StoredCode { code: string, n: number }

export interface StateInput {
  column: LiveColumn
  /** Why the column was taken, for its comment. */
  note: string
  codes: StoredCode[]
  labels?: CodeLabels
  /** The column's default, as a code (`'M'` → M). */
  defaultCode?: string
  /** Sampled rows starting today or later, by code: what a new booking holds. */
  ahead: Map<string, number>
  /** The code of open slots, left out of the map (`openSlots` reads those rows). */
  openSlot?: string
}

export interface StateDraft {
  /** The `state:` block, at the resource's indentation. */
  lines: string[]
  /** `states:` lines for the resource's `write`, where several codes read as one state. */
  writes: string[]
  /**
   * The top-level `states` line where the map cannot write every default state: the states
   * some code reads as, and the one a booking is stored in where no code reads as WAITING
   * (GNU Health books as `confirmed`). A move into a state no code stands for is refused then,
   * rather than stored as a code the clinic's program does not know.
   */
  states?: string
}

interface Entry { code: string, n: number, label?: string, reading?: Reading & { state: State } }

const ORDER: State[] = ['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE']

/** What each code means: its label first, then the code itself where it is a word. */
export function readCode (code: string, labels: CodeLabels | undefined): { label?: string, reading?: Reading } {
  const label = labels?.labels.get(code)
  const reading = (label === undefined ? undefined : readState(label)) ?? readState(code)
  return { label, reading }
}

export function stateDraft (input: StateInput): StateDraft {
  const { column, labels } = input
  const stored = input.codes.map((c) => ({ code: c.code.trim(), n: c.n })).filter((c) => c.code !== input.openSlot)
  const keys = labels === undefined ? stored : keysOf(stored, labels)
  const entries: Entry[] = keys.map(({ code, n }) => {
    const { label, reading } = readCode(code, labels)
    return { code, n, label, reading: reading === undefined || reading.state === 'FREE' ? undefined : { ...reading, state: reading.state } }
  })
  const out = ['    state:', `      column: ${ident(column.name)}   # guess: ${input.note}`, `      type: ${column.kind === 'number' ? 'int' : 'text'}`]
  const byFold = new Map<string, string[]>()
  for (const e of entries) byFold.set(e.code.toLowerCase(), [...byFold.get(e.code.toLowerCase()) ?? [], e.code])
  const twins = [...byFold.values()].filter((codes) => codes.length > 1)
  if (twins.length > 0) out.push(`      codes: exact   # guess: codes that differ by case only (${twins.map((c) => c.join('/')).join(', ')}) are different states`)
  const modified = labels?.prefix === true ? stored.filter((s) => !labels.labels.has(s.code)) : []
  if (modified.length > 0) out.push(`      match: prefix   # guess: stored codes ${modified.map((m) => m.code).join(', ')} are a code of ${labels?.source.replace(/\..*/, '')} with a letter after it; each reads as the code it starts with`)
  const from = labels === undefined ? '' : `; labels from ${labels.source}`
  out.push(`      map:   # each code → WAITING, CONFIRMED, CANCELED, MISSED or DONE${from}; a code nothing explains is WAITING, which keeps its slot held, until you say (docs/cli.md#init)`)
  if (entries.length === 0) out.push('        "0": WAITING   # TODO: a placeholder: no stored code to read')
  for (const e of entries) {
    const rows = e.n === 0 ? 'no rows yet' : `${e.n} row${e.n === 1 ? '' : 's'}`
    const said = e.label === undefined ? (e.reading === undefined ? '' : 'by its name, ') : `${JSON.stringify(e.label)}, `
    out.push(e.reading !== undefined
      ? `        ${JSON.stringify(e.code)}: ${e.reading.state}   # guess: ${said}${rows}`
      : `        ${JSON.stringify(e.code)}: WAITING   # TODO: ${said}${rows}; ${e.label === undefined ? 'no label or word' : 'no word of its label'} says what it means`)
  }
  return { lines: out, writes: writeCodes(entries, column, input), states: statesLine(entries, input) }
}

/** The states the map can store, and the initial one where it is not WAITING; undefined when every default state has a code. */
function statesLine (entries: Entry[], input: StateInput): string | undefined {
  const read = new Set(entries.map((e) => e.reading?.state ?? 'WAITING'))
  const values = ORDER.filter((s) => read.has(s))
  if (values.length === ORDER.length || values.length === 0) return undefined
  const missing = ORDER.filter((s) => !read.has(s))
  const todo = `TODO: no code reads as ${missing.join(', ')}: a move there is refused until the map names one`
  if (read.has('WAITING')) return `states: { values: [${values.join(', ')}] }   # ${todo}`
  // No code reads as WAITING: a booking is stored as the code most rows from today on hold, where it reads as CONFIRMED.
  const booked = [...entries].sort((a, b) => (input.ahead.get(b.code) ?? 0) - (input.ahead.get(a.code) ?? 0))[0]
  const n = booked === undefined ? 0 : input.ahead.get(booked.code) ?? 0
  if (booked?.reading?.state !== 'CONFIRMED' || n === 0) return `states: { values: [${values.join(', ')}], initial: ${values[0]} }   # ${todo}; TODO initial: the state a booking is stored in`
  return `states: { values: [${values.join(', ')}], initial: CONFIRMED }   # guess: no code reads as WAITING, and ${n} sampled rows from today on hold ${JSON.stringify(booked.code)}, ` +
    'which reads as CONFIRMED: what a booking is'
}

/** The map's keys: the label table's codes, with the rows of the stored codes each reads (prefix-matched where `match: prefix`), then stored codes it lacks. */
function keysOf (stored: StoredCode[], labels: CodeLabels): StoredCode[] {
  const table = [...labels.labels.keys()]
  const rows = new Map(table.map((c) => [c, 0]))
  const extra: StoredCode[] = []
  for (const s of stored) {
    const key = rows.has(s.code) ? s.code : labels.prefix ? table.filter((c) => s.code.startsWith(c)).sort((a, b) => b.length - a.length)[0] : undefined
    if (key === undefined) extra.push(s)
    else rows.set(key, (rows.get(key) ?? 0) + s.n)
  }
  return [...[...rows].map(([code, n]) => ({ code, n })).sort((a, b) => b.n - a.n), ...extra]
}

/** For each state several codes read as, the code a write stores, and why. */
function writeCodes (entries: Entry[], column: LiveColumn, input: StateInput): string[] {
  const lines: string[] = []
  for (const state of ORDER) {
    const read = entries.filter((e) => (e.reading?.state ?? 'WAITING') === state)
    if (read.length < 2) continue
    const { code, why } = pick(state, read, input)
    const value = column.kind === 'number' && /^-?\d+$/.test(code) ? code : JSON.stringify(code)
    lines.push(`        ${state}: { ${ident(column.name)}: { value: ${value} } }   # ${why.startsWith('TODO') ? why : `guess: ${why}`}`)
  }
  return lines.length === 0 ? [] : ['      states:   # the code a write stores for a state several codes read as', ...lines]
}

function pick (state: State, read: Entry[], input: StateInput): { code: string, why: string } {
  const byRows = (list: Entry[]): Entry[] => [...list].sort((a, b) => b.n - a.n)
  const rows = (n: number): string => `, ${n} row${n === 1 ? '' : 's'}`
  if (state === 'WAITING' && input.defaultCode !== undefined && read.some((e) => e.code === input.defaultCode)) {
    return { code: input.defaultCode, why: 'the column\'s default, what the clinic\'s program gives a new row' }
  }
  const plain = byRows(read.filter((e) => e.reading?.plain === true))[0]
  if (plain) return { code: plain.code, why: `${plain.label === undefined ? 'its name' : 'its label'} says ${state} itself${plain.n > 0 ? rows(plain.n) : ''}` }
  const implied = byRows(read.filter((e) => e.reading !== undefined))[0]
  if (implied) return { code: implied.code, why: `${implied.label === undefined ? 'its name' : 'its label'} implies ${state}${implied.n > 0 ? rows(implied.n) : ''}` }
  const ahead = [...read].sort((a, b) => (input.ahead.get(b.code) ?? 0) - (input.ahead.get(a.code) ?? 0))[0]
  const n = input.ahead.get(ahead.code) ?? 0
  return n > 0
    ? { code: ahead.code, why: `TODO: the code most sampled rows from today on hold (${n}): what a booking is, until you say` }
    : { code: byRows(read)[0].code, why: 'TODO: the most frequent code, until you say' }
}
