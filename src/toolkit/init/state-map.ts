// The appointment's `state` as drafted: every stored code (and every code its label table
// lists) mapped to the state its label or its own name says. A code nothing explains is mapped
// by where its sampled rows fall (code-guess.ts), each guess a `# TODO confirm` naming the
// evidence; one nothing tells is WAITING, the state that keeps holding its slot, with a TODO
// naming it and its rows, and a human says what it means. A booked code that reads as
// CONFIRMED where none reads as WAITING (GNU Health's `confirmed`) is mapped WAITING: a new
// booking answers WAITING (the interface), the chat's confirmation kept beside it. Where
// several codes read as one state, `write.states` names the one a write stores: the column's
// default for WAITING (what the clinic's program gives a new row), else a code whose label
// says the state itself, else the code most rows ahead of today hold.
import type { LiveColumn } from '../../db/columns.js'
import type { CodeLabels } from './code-labels.js'
import { readState, type Reading, type State } from './state-words.js'
import type { CodeEvidence } from './code-evidence.js'
import { guessCodes, type Guess } from './code-guess.js'
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
  /** Where each code's sampled rows fall: what a code nothing names is guessed by. */
  evidence?: CodeEvidence
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

interface Entry { code: string, n: number, label?: string, reading?: Reading & { state: State }, guess?: Guess }

/** The state an entry is drafted as. */
const stateOf = (e: Entry): State => e.reading?.state ?? e.guess?.state ?? 'WAITING'

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
  const booked = bookedConfirmed(entries, input)
  if (booked?.reading !== undefined) booked.reading = { ...booked.reading, state: 'WAITING' }
  const guesses = guessCodes(entries.filter((e) => e.reading === undefined && e !== booked), entries.filter((e) => e.reading !== undefined).map((e) => e.reading?.state as State), input.evidence)
  for (const e of entries) if (guesses.has(e.code)) e.guess = guesses.get(e.code)
  const out = ['    state:', `      column: ${ident(column.name)}   # guess: ${input.note}`, `      type: ${column.kind === 'number' ? 'int' : 'text'}`]
  const byFold = new Map<string, string[]>()
  for (const e of entries) byFold.set(e.code.toLowerCase(), [...byFold.get(e.code.toLowerCase()) ?? [], e.code])
  const twins = [...byFold.values()].filter((codes) => codes.length > 1)
  if (twins.length > 0) out.push(`      codes: exact   # guess: codes that differ by case only (${twins.map((c) => c.join('/')).join(', ')}) are different states`)
  const modified = labels?.prefix === true ? stored.filter((s) => !labels.labels.has(s.code)) : []
  if (modified.length > 0) out.push(`      match: prefix   # guess: stored codes ${modified.map((m) => m.code).join(', ')} are a code of ${labels?.source.replace(/\..*/, '')} with a letter after it; each reads as the code it starts with`)
  const from = labels === undefined ? '' : `; labels from ${labels.source}`
  out.push(`      map:   # each code → WAITING, CONFIRMED, CANCELED, MISSED or DONE${from}; a code nothing names is guessed from where its rows fall, else WAITING, which keeps its slot held, until you say (docs/cli.md#init)`)
  if (entries.length === 0) out.push('        "0": WAITING   # TODO: a placeholder: no stored code to read')
  for (const e of entries) {
    const rows = e.n === 0 ? 'no rows yet' : `${e.n} row${e.n === 1 ? '' : 's'}`
    const said = e.label === undefined ? (e.reading === undefined ? '' : 'by its name, ') : `${JSON.stringify(e.label)}, `
    if (e === booked) {
      out.push(`        ${JSON.stringify(e.code)}: WAITING   # guess: ${said}${rows}: reads as CONFIRMED, but it is what a booking is (no code reads as WAITING, and the most sampled rows from today on hold it): ` +
        'a new booking answers WAITING; TODO: keep the chat\'s confirmation beside it (docs/mapping.md#confirmation-where-the-status-has-no-confirmed-code)')
      continue
    }
    const none = `${e.label === undefined ? 'no label or word' : 'no word of its label'} says what it means`
    out.push(e.reading !== undefined
      ? `        ${JSON.stringify(e.code)}: ${e.reading.state}   # guess: ${said}${rows}`
      : e.guess !== undefined
        ? `        ${JSON.stringify(e.code)}: ${e.guess.state}   # TODO confirm: ${said}${rows}; ${none}: ${e.guess.why}`
        : `        ${JSON.stringify(e.code)}: WAITING   # TODO: ${said}${rows}; ${none}`)
  }
  return { lines: out, writes: writeCodes(entries, column, input), states: statesLine(entries) }
}

/** The states the map can store, and the initial one where it is not WAITING; undefined when every default state has a code. */
function statesLine (entries: Entry[]): string | undefined {
  const read = new Set(entries.map(stateOf))
  const values = ORDER.filter((s) => read.has(s))
  if (values.length === ORDER.length || values.length === 0) return undefined
  const missing = ORDER.filter((s) => !read.has(s))
  const todo = `TODO: no code reads as ${missing.join(', ')}: a move there is refused until the map names one`
  if (read.has('WAITING')) return `states: { values: [${values.join(', ')}] }   # ${todo}`
  return `states: { values: [${values.join(', ')}], initial: ${values[0]} }   # ${todo}; TODO initial: the state a booking is stored in`
}

/**
 * Where no code reads as WAITING, the code most rows from today on hold, when it reads as
 * CONFIRMED (GNU Health books as `confirmed`): drafted WAITING, for `states.initial` must be
 * WAITING (a new booking answers WAITING) and the confirmation is kept beside the status.
 */
function bookedConfirmed (entries: Entry[], input: StateInput): Entry | undefined {
  if (entries.some((e) => e.reading?.state === 'WAITING')) return undefined
  const booked = [...entries].sort((a, b) => (input.ahead.get(b.code) ?? 0) - (input.ahead.get(a.code) ?? 0))[0]
  return booked?.reading?.state === 'CONFIRMED' && (input.ahead.get(booked.code) ?? 0) > 0 ? booked : undefined
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
    const read = entries.filter((e) => stateOf(e) === state)
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
