// States for the codes no label or word names, from where their sampled rows fall (issue 27:
// OpenEMR's `x`, Open Dental's numbers, a Delphi agenda's letters all drafted WAITING held
// cancelled and missed visits' slots). In order: a code whose rows sit beside another booking
// at the same time is a cancellation kept beside its replacement (CANCELED); a code only past
// rows hold, while the schedule ahead holds others, is a visit's end (the more frequent DONE,
// the others MISSED); a Brazilian desk's one-letter codes as desks use them; where still no
// code reads as WAITING, the code most rows ahead hold. Each is a guess to confirm.
import { OVERLAP_RATIO, OVERLAP_SHARE } from '../../check/state-evidence.js'
import type { CodeEvidence, CodeTally } from './code-evidence.js'
import type { State } from './state-words.js'

export interface Guess { state: State, why: string }

/** Sampled rows it takes to tell anything of a code. */
const FEWEST = 2

/** One-letter codes as Brazilian desks use them; T and R differ from desk to desk, so left to the rows. */
const LETTERS: Record<string, [State, string]> = {
  A: ['WAITING', 'agendado'],
  M: ['WAITING', 'marcado'],
  C: ['CONFIRMED', 'confirmado'],
  X: ['CANCELED', 'cancelado'],
  D: ['CANCELED', 'desmarcado'],
  F: ['MISSED', 'faltou']
}

const pct = (n: number, of: number): string => `${Math.round(of === 0 ? 0 : (n * 100) / of)}%`

/** A guess for each of `codes` the evidence tells; `named`: the states codes already read as. */
export function guessCodes (codes: Array<{ code: string }>, named: State[], evidence: CodeEvidence | undefined): Map<string, Guess> {
  const out = new Map<string, Guess>()
  if (codes.length === 0) return out
  const zero: CodeTally = { n: 0, past: 0, ahead: 0, overlapped: 0 }
  const ev = (code: string): CodeTally => evidence?.get(code) ?? zero
  const all = [...evidence ?? []]
  const others = (code: string, pick: (t: CodeTally) => number): number => all.filter(([c]) => c !== code).reduce((s, [, t]) => s + pick(t), 0)
  const open = (): Array<{ code: string }> => codes.filter((c) => !out.has(c.code))

  for (const { code } of codes) {
    const t = ev(code)
    const rest = others(code, (x) => x.n)
    const otherRate = rest === 0 ? 0 : others(code, (x) => x.overlapped) / rest
    if (t.overlapped >= FEWEST && t.overlapped / t.n >= OVERLAP_SHARE && t.overlapped / t.n >= otherRate * OVERLAP_RATIO) {
      out.set(code, {
        state: 'CANCELED',
        why: `${t.overlapped} of ${t.n} sampled rows share their professional and start with another row (${pct(otherRate, 1)} of other codes' rows do): a cancellation kept beside the booking that took its slot?`
      })
    }
  }

  const pastOnly = open().filter(({ code }) => ev(code).ahead === 0 && ev(code).past >= FEWEST && others(code, (x) => x.ahead) > 0)
    .sort((a, b) => ev(b.code).past - ev(a.code).past)
  let done = named.includes('DONE')
  for (const { code } of pastOnly) {
    const t = ev(code)
    const letter = LETTERS[code]?.[0]
    const state: State = letter === 'MISSED' || letter === 'DONE' ? letter : done ? 'MISSED' : 'DONE'
    if (state === 'DONE') done = true
    const because = letter === state ? `, and ${code} is how desks write ${LETTERS[code][1]}` : state === 'DONE' ? ', the most such rows' : ''
    out.set(code, { state, why: `all ${t.past} sampled rows are before today while ${others(code, (x) => x.ahead)} rows of other codes are ahead: a visit's end${because}?` })
  }

  const letters = codes.every(({ code }) => /^[A-Z]$/i.test(code)) && codes.filter(({ code }) => LETTERS[code.toUpperCase()] !== undefined).length >= 2
  if (letters) {
    for (const { code } of open()) {
      const known = LETTERS[code.toUpperCase()]
      if (known !== undefined) out.set(code, { state: known[0], why: `${code} is how desks write ${known[1]}` })
    }
  }

  if (!named.includes('WAITING') && ![...out.values()].some((g) => g.state === 'WAITING')) {
    const booked = open().filter(({ code }) => ev(code).ahead > 0).sort((a, b) => ev(b.code).ahead - ev(a.code).ahead)[0]
    if (booked !== undefined) out.set(booked.code, { state: 'WAITING', why: `the code most sampled rows from today on hold (${ev(booked.code).ahead}): what a booking is?` })
  }
  return out
}
