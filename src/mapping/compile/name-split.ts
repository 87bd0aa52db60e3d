// Where a name written through a `{given} {family}` template is cut: Brazilian compound given
// names (`Maria das Graças`) are not a first word, family names keep their particles (`da
// Silva`, `de la Fontaine`, `van der Berg`), their joined names (`de Souza e Silva`) and
// suffixes, and the mapping may say which column is the family's (OpenMRS's `family_name`
// before its rarely used `family_name2`), which takes the family's leading particles
// (`family_name_prefix`), where a lone word goes and a middle column it writes without reading.
import type { Value } from '../model.js'
import { templateColumns } from './value.js'

type SplitDoc = NonNullable<Value['split']>
export type SplitRule = Extract<SplitDoc, string>
export type NameSplit = Exclude<SplitDoc, string>

/** Words (in any case) that belong to the family name after them (`da Silva`, `de la Fontaine`, `Di Maio`). */
const PARTICLES = new Set([
  'da', 'das', 'de', 'do', 'dos', 'e', // Portuguese
  'du', 'des', 'la', 'le', 'les', // French
  'del', 'las', 'los', 'y', // Spanish
  'di', 'dal', 'dalla', 'dei', 'degli', 'della', 'delle', 'lo', // Italian
  'van', 'der', 'den', 'ter', 'ten', 'het', // Dutch
  'von', 'vom', 'zu', 'zum', 'zur' // German
])
/** Particles joining two family names (`Souza e Silva`, `Ortega y Gasset`): the family takes the word before them. */
const CONJUNCTIONS = new Set(['e', 'y'])
/**
 * A particle and the word after it that are part of a Brazilian given name (`Maria das Graças`,
 * `Maria de Fátima`), compared in lower case without accents; a given name only when a word
 * follows them (`João da Conceição` is `João` + `da Conceição`).
 */
const GIVEN_PAIRS = new Set([
  'das gracas', 'das dores', 'das neves', 'das merces', 'de fatima', 'de lourdes', 'de nazare',
  'de nazareth', 'do carmo', 'do socorro', 'do rosario', 'do ceu', 'do livramento', 'da conceicao',
  'da penha', 'da gloria', 'da piedade', 'da salete', 'da consolacao', 'da assuncao', 'de ribamar',
  'dos remedios'
])
/** Words (in any case) that close a family name and belong with the word before them (`Nogueira Filho`). */
const SUFFIXES = new Set(['filho', 'filha', 'júnior', 'junior', 'jr', 'jr.'])
/**
 * Suffixes that are surnames too (`Ana Paula Neto`): they close a family name only when two
 * words or more stand before the word they would take (`João da Silva Neto`, `Ana Paula Souza
 * Neto`); in a shorter name they are the surname, the words before them given names.
 */
const SURNAME_SUFFIXES = new Set(['neto', 'neta', 'sobrinho', 'sobrinha'])

/** The object form of `split`, the bare rule being `{ rule }`. */
export function splitOf (doc: SplitDoc | undefined): NameSplit {
  return typeof doc === 'string' ? { rule: doc } : doc ?? {}
}

/** The columns a name is written to, in the order its words fill them. */
export interface NameLayout {
  /** Given columns in order: the template's before the family, then a write-only `middle`. */
  given: string[]
  family: string | undefined
  /** The template column just before the family's taking the family's leading particles (`split.familyPrefix`). */
  prefix: string | undefined
  /** Template columns after the family's: read, written blank. */
  secondary: string[]
}

export function nameLayout (columns: string[], doc: SplitDoc | undefined): NameLayout {
  const split = splitOf(doc)
  if (columns.length <= 1 && split.middle === undefined) return { given: columns, family: undefined, prefix: undefined, secondary: [] }
  const at = split.family === undefined ? columns.length - 1 : columns.indexOf(split.family)
  const prefixAt = split.familyPrefix === undefined ? -1 : columns.indexOf(split.familyPrefix)
  const given = columns.slice(0, prefixAt >= 0 ? prefixAt : at)
  return { given: [...given, ...split.middle === undefined ? [] : [split.middle]], family: columns[at], prefix: prefixAt >= 0 ? columns[prefixAt] : undefined, secondary: columns.slice(at + 1) }
}

/** The name cut into the layout's columns, every one of them present ('' where blank). */
export function splitInto (name: string, layout: NameLayout, doc: SplitDoc | undefined): Record<string, string> {
  const split = splitOf(doc)
  const words = name.trim().split(/\s+/).filter((w) => w !== '')
  const out: Record<string, string> = Object.fromEntries([...layout.given, ...layout.prefix === undefined ? [] : [layout.prefix], ...layout.family === undefined ? [] : [layout.family], ...layout.secondary].map((c) => [c, '']))
  if (words.length === 0) return out
  const { given, family } = layout
  // One column takes every word; a lone word goes where `alone` says (the given column by default).
  if (family === undefined || given.length === 0) {
    const into = family ?? given[0]
    if (into !== undefined) out[into] = words.join(' ')
    return out
  }
  if (words.length === 1) {
    if (split.alone !== 'family') out[given[0]] = words[0]
    if (split.alone === 'family' || split.alone === 'both') out[family] = words[0]
    return out
  }
  const n = familyWords(words, split.rule ?? 'firstSpace')
  const first = words.slice(0, words.length - n)
  // The given words fill the given columns in order, the rest to the last of them.
  given.forEach((c, i) => { out[c] = i < given.length - 1 ? (first[i] ?? '') : first.slice(i).join(' ') })
  const last = words.slice(words.length - n)
  // The family's leading particles to the prefix column, at least its last word to the family's.
  let lead = 0
  if (layout.prefix !== undefined) while (lead < last.length - 1 && PARTICLES.has(last[lead].toLowerCase())) lead++
  if (layout.prefix !== undefined) out[layout.prefix] = last.slice(0, lead).join(' ')
  out[family] = last.slice(lead).join(' ')
  return out
}

/**
 * The name's words cut into `parts` pieces, the template's columns in order, the family in the
 * last; joined by single spaces (blank pieces left out) they give back the words as sent.
 */
export function splitName (name: string, parts: number, rule: SplitDoc = 'firstSpace'): string[] {
  const columns = Array.from({ length: parts }, (_, i) => String(i))
  const cut = splitInto(name, nameLayout(columns, typeof rule === 'string' ? rule : { ...rule, family: undefined, familyPrefix: undefined, middle: undefined }), rule)
  return columns.map((c) => cut[c])
}

/**
 * What the template reads back after `name` is written: the name as sent, unless a lone word
 * is written twice (`alone: both`) or given words go to a `middle` column it does not read.
 */
export function nameAsRead (name: string, columns: string[], doc: SplitDoc | undefined): string {
  const cut = splitInto(name, nameLayout(columns, doc), doc)
  return columns.map((c) => cut[c]).filter((w) => w !== '').join(' ')
}

/** How many of the last words are the family name under `rule`; at least one given word stays. */
function familyWords (words: string[], rule: SplitRule): number {
  // With a middle column too, the family still goes to the last: a two-word name never lands in the middle.
  if (rule === 'firstSpace') return words.length - 1
  if (rule === 'lastSpace') return 1
  return words.length - particlesStart(words)
}

/**
 * Where the family name begins under `particles`: at the first particle after the first word
 * (`José Carlos` + `de Oliveira Santos`), a compound given name's skipped (`Maria das Graças` +
 * `de Souza e Silva`), a joining `e`/`y` taking the word before it (`José` + `Ortega y Gasset`);
 * without one, at the last word with its suffix and the particles just before it.
 */
function particlesStart (words: string[]): number {
  let start = words.length - tailWords(words)
  let given = 1
  for (let i = 1; i < start; i++) {
    const word = words[i].toLowerCase()
    if (!PARTICLES.has(word)) continue
    if (i + 2 < words.length && GIVEN_PAIRS.has(folded(`${word} ${words[i + 1]}`))) {
      given = i + 2
      i++
      continue
    }
    start = i
  }
  return CONJUNCTIONS.has(words[start].toLowerCase()) && start - 1 >= given ? start - 1 : start
}

/** The last word, the word before a closing suffix, and the run of particles just before them. */
function tailWords (words: string[]): number {
  // `Filho`, `Júnior`… close the family name begun by the word before them.
  const last = words[words.length - 1].toLowerCase()
  const closes = SUFFIXES.has(last) ? words.length > 2 : SURNAME_SUFFIXES.has(last) && words.length > 3
  let n = closes ? 2 : 1
  // The family starts at the first of the particles just before it (`de la Fontaine`).
  while (n < words.length - 1 && PARTICLES.has(words[words.length - 1 - n].toLowerCase())) n++
  return n
}

const folded = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

/** Where the object form of `split` names a column it cannot, with the key's place. */
export function splitProblem (v: Value): { at: string, message: string } | undefined {
  if (typeof v.split !== 'object') return undefined
  const columns = templateColumns(v.template ?? '')
  const { family, middle } = v.split
  if ((family !== undefined || middle !== undefined) && columns.length < 2) {
    return { at: `${v.path}/split/${family !== undefined ? 'family' : 'middle'}`, message: `\`${family !== undefined ? 'family' : 'middle'}\` goes with a name template of at least two columns (\`{given} {family}\`): with one, the given names would land in ${family !== undefined ? 'no column' : 'the middle column and the family in the only one'}` }
  }
  if (family !== undefined && columns.indexOf(family) < 1) {
    return { at: `${v.path}/split/family`, message: `\`family\` names a column of the template after the given name's (one of ${columns.slice(1).map((c) => `\`${c}\``).join(', ') || 'none: the template has one column'})` }
  }
  const prefix = familyPrefix(v, columns)
  if (prefix !== undefined) return prefix
  if (middle === undefined) return undefined
  const alias = (c: string): string => c.includes('.') ? c.slice(0, c.indexOf('.')) : ''
  if (columns.includes(middle)) return { at: `${v.path}/split/middle`, message: '`middle` is a column the template does not read (a template column is written already)' }
  if (alias(middle) !== alias(columns[0])) return { at: `${v.path}/split/middle`, message: `\`middle\` is a column of the row the template's columns are in${alias(columns[0]) === '' ? ' (no `alias.`)' : ` (\`${alias(columns[0])}.…\`)`}` }
  return undefined
}

/** `familyPrefix` names the template column just before the family's, after a given one. */
function familyPrefix (v: Value, columns: string[]): { at: string, message: string } | undefined {
  if (typeof v.split !== 'object' || v.split.familyPrefix === undefined) return undefined
  const family = v.split.family === undefined ? columns.length - 1 : columns.indexOf(v.split.family)
  const at = columns.indexOf(v.split.familyPrefix)
  if (at >= 1 && at === family - 1) return undefined
  return { at: `${v.path}/split/familyPrefix`, message: `\`familyPrefix\` names the template's column just before the family's${family >= 2 ? ` (\`${columns[family - 1]}\`)` : ', after a given name\'s: the template needs three columns or more'}, so the name reads back in its order` }
}
