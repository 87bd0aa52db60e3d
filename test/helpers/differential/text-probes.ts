// Probes of text and date handling where databases differ most: a value one character past a
// declared column length (refused alike everywhere, counted in characters, not bytes), case,
// trailing spaces and accents in stored and searched text, and the ends of the date window.
import type { Differ, Reply } from './differ.js'
import type { Side } from './sides.js'

const q = encodeURIComponent

// The declared lengths of the samples' client columns (names 60/80/100, e-mails 100/160,
// phones 20/24) and a few more: probing each ±1 covers every boundary without the test
// knowing which column has which length.
const LENGTHS = [20, 24, 30, 60, 80, 100, 140, 160]
// Where a name column ends: there a multi-byte character must count as one.
const NAME_LENGTHS = [60, 80, 100]

/** A name of exactly `n` characters, in words (so first/last-name splits still have two parts). */
function nameOf (n: number, letter: string): string {
  const word = letter.repeat(7)
  let s = `Ana ${word}`
  while (s.length < n) s += ` ${word}`
  return s.slice(0, n).trimEnd().padEnd(n, letter)
}

function emailOf (n: number): string {
  const domain = '@example.com'
  return `${'e'.repeat(Math.max(1, n - domain.length))}${domain}`
}

export async function textProbes (d: Differ, areaCode: string): Promise<void> {
  let n = 0
  const phone = (): string => `+55${areaCode}96${String(5_120_000 + ++n * 6133).padStart(7, '0').slice(-7)}`
  const created = new Map<string, (s: Side) => string | undefined>()
  const post = async (label: string, body: Record<string, unknown>): Promise<Reply> => {
    const r = await d.ask({ method: 'POST', url: '/clients', body, label })
    created.set(label, (s) => r.of(s)?.id)
    return r
  }

  d.begin('text: column lengths')
  const around = (xs: number[]): number[] => xs.flatMap((x) => [x - 1, x, x + 1])
  for (const len of around(LENGTHS)) {
    await post(`name ${len} ascii`, { name: nameOf(len, 'a'), phone: phone() })
    await post(`email ${len}`, { name: 'Eva Comprimento', phone: phone(), email: emailOf(len) })
  }
  // Two bytes each in UTF-8: a database counting bytes refuses what the others accept.
  for (const len of around(NAME_LENGTHS)) await post(`name ${len} accented`, { name: nameOf(len, 'ç'), phone: phone() })
  const target = created.get('name 20 ascii')
  for (const len of [...around(NAME_LENGTHS), 200]) {
    await d.ask((s) => ({ method: 'PATCH', url: `/clients/${q(target?.(s) ?? 'x')}`, body: { name: nameOf(len, 'é') }, label: `patch name ${len}` }))
  }
  await d.ask((s) => ({ method: 'GET', url: `/clients/${q(target?.(s) ?? 'x')}`, label: 'after length patches' }))

  d.begin('text: case, spaces, accents')
  const stored = ['JOSÉ DA CONCEIÇÃO ÂNGELO', 'joão pedro brandão', 'Zoë Ångström', 'Maria  Dupla Espaço', 'Trailing Name   ', ' Leading Name']
  for (const name of stored) await post(`stored ${name}`, { name, phone: phone(), email: `${name.trim().split(' ')[0].toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}.Case@Example.COM` })
  for (const term of ['jose da conceicao angelo', 'José da Conceição Ângelo', 'JOSE  DA  CONCEICAO  ANGELO  ', 'jose conceicao', 'JOÃO PEDRO BRANDÃO', 'joao pedro brandao ',
    'zoe angstrom', 'ZOË ÅNGSTRÖM', 'maria dupla espaco', 'Maria Dupla Espaço', 'trailing name', 'leading name', 'jose.case@example.com', 'JOSE.CASE@EXAMPLE.COM']) {
    await d.get(`/clients/search?term=${q(term)}`, 'stored text')
  }
  for (const name of stored) await d.ask((s) => ({ method: 'GET', url: `/clients/${q(created.get(`stored ${name}`)?.(s) ?? 'x')}`, label: `stored ${name}` }))

  d.begin('text: date edges')
  for (const birthday of ['1900-01-01', '1900-01-02', '2199-12-31', '1899-12-31', '2200-01-01', '2000-02-29', '2001-02-29', '1900-01-01T00:00:00Z', '1900-01-01T12:00:00-03:00', '2199-12-31T23:00:00Z']) {
    const r = await post(`birthday ${birthday}`, { name: 'Data Limite', phone: phone(), birthday })
    if (r.status === 200) await d.ask((s) => ({ method: 'GET', url: `/clients/${q(created.get(`birthday ${birthday}`)?.(s) ?? 'x')}`, label: `birthday ${birthday}` }))
  }
}

/**
 * Characters outside what a non-Unicode (code page) column holds. Run last: a client stored on
 * one side only moves every later generated id there, and would show up in every later body.
 */
export async function unusualCharacters (d: Differ, areaCode: string): Promise<void> {
  let n = 0
  const phone = (): string => `+55${areaCode}95${String(6_230_000 + ++n * 4099).padStart(7, '0').slice(-7)}`
  d.begin('text: unusual characters')
  // Four-byte UTF-8 (a 3-byte utf8 column cannot hold it), decomposed accents, NUL, tabs,
  // other scripts: stored, read back and searched alike, or refused alike.
  const unusual = ['Zoë 😀 Sorriso', 'Jose\u0301 Decomposto', 'Nome\u0000Nulo Silva', 'Ângela\tTabulação', '李小龍 Lee', 'Ελένη Παπαδοπούλου', 'Ana 𝒜stral']
  for (const name of unusual) {
    const r = await d.ask({ method: 'POST', url: '/clients', body: { name, phone: phone() }, label: `unusual ${name}` })
    await d.ask((s) => ({ method: 'GET', url: `/clients/${q(r.of(s)?.id ?? 'x')}`, label: `unusual ${name}` }))
  }
  for (const term of [...unusual, 'zoe 😀 sorriso', 'José Decomposto', 'jose decomposto', 'ELENH', 'ελένη παπαδοπούλου', 'angela tabulacao']) await d.get(`/clients/search?term=${q(term)}`, 'unusual term')
}
