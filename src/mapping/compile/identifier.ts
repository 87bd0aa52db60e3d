// Identifiers with a check character, as record systems generate them for new patients:
// the record's number (padded, prefixed) and a Luhn mod N character over a declared alphabet
// (mod 10 over digits is the familiar Luhn; OpenMRS uses mod 30 over 0-9 and 20 letters).
import { CompileError } from './scope.js'

export interface IdentifierDoc { check: 'luhn', characters?: string, prefix?: string, digits?: number }

/** Luhn mod N check character of `text`, every character of which is in `alphabet`. */
export function luhnCheck (text: string, alphabet: string): string {
  const n = alphabet.length
  let factor = 2
  let sum = 0
  // From the right: every second code point doubled, its "digits" in base N summed.
  for (let i = text.length - 1; i >= 0; i--) {
    const code = alphabet.indexOf(text[i].toUpperCase())
    if (code < 0) throw new RangeError(`"${text[i]}" is not in the identifier alphabet`)
    const addend = factor * code
    factor = factor === 2 ? 1 : 2
    sum += Math.floor(addend / n) + (addend % n)
  }
  return alphabet[(n - (sum % n)) % n]
}

/** True when the last character is the check character of the rest. */
export function luhnValid (identifier: string, alphabet: string): boolean {
  return identifier.length > 1 && luhnCheck(identifier.slice(0, -1), alphabet) === identifier.slice(-1).toUpperCase()
}

export function identifierMaker (doc: IdentifierDoc, path: string): (key: string) => string {
  const alphabet = doc.characters ?? '0123456789'
  if (new Set(alphabet.toUpperCase()).size !== alphabet.length) throw new CompileError(`${path}/characters`, 'each character once, in value order')
  const prefix = doc.prefix ?? ''
  return (key) => {
    const number = doc.digits === undefined ? key : key.padStart(doc.digits, '0')
    return `${prefix}${number}${luhnCheck(number, alphabet)}`
  }
}
