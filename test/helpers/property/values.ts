// Request values a caller really sends: names with accents and compound given names in any
// case and spacing, phones of the installation's country and of others in the spellings
// people type, e-mails in mixed case, valid CPFs, birthdays. Each comes with what it must
// read back as, worked out here from the spec, not from Ponte's code.
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import type { Random } from './random.js'

export type Country = 'BR' | 'US' | 'PT'

// Letters of Latin-1, or that decompose under NFD, so comparing case- and accent-insensitively
// sees through the fold to Latin-1 a VARCHAR column gets (ễ, ș and ă are outside it on purpose;
// Ł or Œ, which the fold turns into other letters, are left out).
const GIVEN = ['Ana', 'José', 'Maria José', 'João Pedro', 'Conceição', 'Zoë', 'Renée', 'Ítalo', 'Ângela', 'Luís Felipe',
  'Anne-Marie', 'Chloé', 'Ștefan', 'Nguyễn', 'Bruno', 'Iñaki', 'Ana Luísa', 'Kim']
const FAMILY = ['da Silva', 'Gonçalves', 'Nuñez', "O'Brien", 'Müller', 'de Souza Costa', 'Araújo', 'Brandão', 'Lee', 'Ito',
  'Ăvram', 'dos Santos Júnior', 'Øvergård', 'Van der Berg']

export interface Sent { sent: string, expected: string }

/** A person's name as typed: case and spacing vary; it reads back as the same words. */
export function personName (r: Random, phone?: string): Sent {
  // When the conversation gave no name, the caller sends the phone number (interface spec).
  if (phone !== undefined && r.chance(0.05)) return { sent: phone, expected: phone }
  // Longer than any name column of the generated schemas: refused, naming the field.
  if (r.chance(0.04)) {
    const long = `${r.pick(GIVEN)} ${'Albuquerque '.repeat(7).trim()}`
    return { sent: long, expected: long }
  }
  const words = [r.pick(GIVEN), ...(r.chance(0.85) ? [r.pick(FAMILY)] : [])].join(' ')
  const cased = r.chance(0.15) ? words.toUpperCase() : r.chance(0.1) ? words.toLowerCase() : words
  const spaced = r.chance(0.2) ? `  ${cased.replace(/ /g, '   ')} ` : cased
  return { sent: spaced, expected: words }
}

const DDD = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '92']
const US_AREAS = ['212', '415', '617', '305', '312', '646']
const digits = (r: Random, n: number): string => Array.from({ length: n }, () => String(r.int(0, 9))).join('')

/** A number of `country` as E.164 (valid for libphonenumber, or by Brazil's own rules). */
export function phoneOf (r: Random, country: Country, areaCode?: string): string {
  if (country === 'BR') {
    const area = areaCode !== undefined && r.chance(0.5) ? areaCode : r.pick(DDD)
    return r.chance(0.75) ? `+55${area}9${r.int(6, 9)}${digits(r, 7)}` : `+55${area}${r.int(2, 5)}${digits(r, 7)}`
  }
  for (;;) {
    const e164 = country === 'US'
      ? `+1${r.pick(US_AREAS)}${r.int(2, 9)}${digits(r, 6)}`
      : r.chance(0.7) ? `+3519${r.pick(['1', '2', '3', '6'])}${digits(r, 7)}` : `+3512${r.int(1, 9)}${digits(r, 7)}`
    if (parsePhoneNumberFromString(e164)?.isValid() === true) return e164
  }
}

/**
 * A phone as a caller sends it: E.164 (spaced or not), a Brazilian mobile without its ninth
 * digit, or, for the installation's own country, national spellings.
 */
export function phoneSent (r: Random, home: Country, areaCode: string | undefined): Sent & { foreign: boolean } {
  const foreign = r.chance(0.3)
  const country = foreign ? r.pick((['BR', 'US', 'PT'] as const).filter((c) => c !== home)) : home
  const e164 = phoneOf(r, country, areaCode)
  const parsed = parsePhoneNumberFromString(e164)
  const spellings = [e164, parsed?.formatInternational() ?? e164]
  const br = /^\+55(\d{2})(9?)(\d{4})(\d{4})$/.exec(e164)
  // Messaging platforms drop the ninth digit; Ponte must still store the same number.
  if (br && br[2] === '9' && /^[6-9]/.test(br[3])) spellings.push(`+55${br[1]}${br[3]}${br[4]}`)
  if (!foreign) {
    if (br) {
      spellings.push(`(${br[1]}) ${br[2]}${br[3]}-${br[4]}`, `${br[1]}${br[2]}${br[3]}${br[4]}`)
      if (areaCode === br[1]) spellings.push(`${br[2]}${br[3]}-${br[4]}`)
    } else if (parsed) spellings.push(parsed.formatNational())
  }
  return { sent: r.pick(spellings), expected: e164, foreign }
}

/** An e-mail in mixed case; now and then not an address at all. */
export function emailSent (r: Random): Sent {
  if (r.chance(0.04)) return { sent: 'ana.lima@', expected: '' }
  // Longer than any e-mail column of the generated schemas.
  if (r.chance(0.03)) return { sent: `${'maria.conceicao.'.repeat(4)}x@example.com`, expected: `${'maria.conceicao.'.repeat(4)}x@example.com` }
  const local = r.pick(['ana.lima', 'Joao_Pedro', 'fay', 'R.Mueller+agenda', 'kim.ito', 'Zoe'])
  const domain = r.pick(['Example.com', 'clinica.com.br', 'MAIL.PT', 'example.org'])
  const email = `${local}${r.int(1, 99)}@${domain}`
  return { sent: r.chance(0.2) ? email.toUpperCase() : email, expected: email }
}

function cpfCheck (nine: string): string {
  const d = nine.split('').map(Number)
  const first = (d.reduce((s, x, i) => s + x * (10 - i), 0) * 10) % 11 % 10
  const second = ([...d, first].reduce((s, x, i) => s + x * (11 - i), 0) * 10) % 11 % 10
  return `${nine}${first}${second}`
}

/** A valid CPF, bare or punctuated; now and then one whose check digits are wrong. */
export function cpfSent (r: Random): Sent {
  let nine = digits(r, 9)
  while (/^(\d)\1+$/.test(nine)) nine = digits(r, 9)
  let cpf = cpfCheck(nine)
  if (r.chance(0.04)) cpf = cpf.slice(0, 10) + String((Number(cpf[10]) + 1) % 10)
  const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
  return { sent: r.chance(0.5) ? cpf : masked, expected: cpf }
}

/** A date of birth; now and then one in the future. */
export function birthdaySent (r: Random): Sent {
  const day = r.chance(0.03) ? '2040-02-29' : `${r.int(1935, 2015)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`
  return { sent: day, expected: day }
}
