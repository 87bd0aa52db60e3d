import { normaliseCpf } from './cpf.js'
import { parsePhoneInput, type PhoneOptions } from './phone.js'
import { foldName, normaliseEmail } from './text.js'

export type SearchKind = 'phone' | 'cpf' | 'email' | 'name'

export interface TermReading {
  kind: SearchKind;
  value: string;
}

// Characters that appear in typed phones and CPFs ('+55 (11) 98765-4321', '123.456.789/09').
const NUMERIC_TERM = /^[\d\s+().\-/]+$/

/**
 * Every enabled kind a client-search term could be, each with its normalised
 * value. A term can be ambiguous: '11987654321' is both a CPF-shaped number
 * and a phone, and the caller searches for either.
 */
export function classifyTerm (
  term: string,
  enabled: readonly SearchKind[],
  phoneOpts: PhoneOptions
): TermReading[] {
  const trimmed = term.trim()
  if (trimmed === '') return []
  const readings = readTerm(trimmed, phoneOpts)
  return readings.filter((r) => enabled.includes(r.kind))
}

function readTerm (term: string, phoneOpts: PhoneOptions): TermReading[] {
  if (term.includes('@')) return some('email', normaliseEmail(term))
  if (/\p{L}/u.test(term)) return some('name', foldName(term))
  if (!NUMERIC_TERM.test(term)) return []
  return [...cpfReading(term), ...some('phone', parsePhoneInput(term, phoneOpts))]
}

// A search term must spell all 11 digits; padding lost zeros is for stored values only.
function cpfReading (term: string): TermReading[] {
  if (term.replace(/\D/g, '').length !== 11) return []
  return some('cpf', normaliseCpf(term))
}

function some (kind: SearchKind, value: string | undefined): TermReading[] {
  return value === undefined ? [] : [{ kind, value }]
}
