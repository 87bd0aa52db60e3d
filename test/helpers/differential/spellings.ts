// Other spellings of values taken from the data, the way callers and legacy systems type
// them: another case, accents dropped, spaces around, masks on phones and CPFs. Each must be
// treated the same by every database (found, or not found, alike).

export const stripAccents = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '')

/** Spellings of a stored name: case, accents and spacing changed. */
export function nameSpellings (name: string): string[] {
  const out = [name, name.toUpperCase(), stripAccents(name).toLowerCase(), `${name}  `, name.split(' ').join('  ')]
  const words = name.split(' ')
  if (words.length > 1) out.push(words[0])
  return [...new Set(out)]
}

/** Spellings of an E.164 phone: national digits, masked, with and without the country code. */
export function phoneSpellings (e164: string): string[] {
  const m = /^\+55(\d{2})(\d{4,5})(\d{4})$/.exec(e164)
  if (!m) return [e164, `${e164} `]
  const [, ddd, a, b] = m
  const out = [e164, `${ddd}${a}${b}`, `(${ddd}) ${a}-${b}`, `${a}-${b}`, `${ddd}${a}${b}   `]
  // Brazilian mobiles with and without the ninth digit are one number.
  if (a.length === 5 && a.startsWith('9')) out.push(`(${ddd}) ${a.slice(1)}-${b}`)
  // One digit short: a number nobody holds.
  out.push(`${ddd}${a}${b.slice(0, 3)}`)
  return [...new Set(out)]
}

/** Spellings of an 11-digit CPF: bare, masked, spaced, one digit changed. */
export function cpfSpellings (cpf: string): string[] {
  const d = cpf.replace(/\D/g, '')
  if (d.length !== 11) return [cpf]
  const masked = `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
  const wrong = d.slice(0, 10) + String((Number(d[10]) + 1) % 10)
  return [...new Set([d, masked, `${masked} `, `${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6, 9)} ${d.slice(9)}`, wrong])]
}

export function emailSpellings (email: string): string[] {
  return [...new Set([email, email.toUpperCase(), ` ${email} `])]
}

/** Spellings of an id that are not it (canonical-ids contract): all must be refused alike. */
export function idSpellings (id: string): string[] {
  const out = [`0${id}`, `${id} `, ` ${id}`, id.toLowerCase(), id.toUpperCase()]
  if (/^\d+$/.test(id)) out.push(`+${id}`, `${id}.0`)
  return [...new Set(out)].filter((v) => v !== id)
}
