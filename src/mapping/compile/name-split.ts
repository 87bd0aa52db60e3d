// Where a name written through a `{given} {family}` template is cut: Brazilian compound given
// names (`Maria das Graças`) are not a first word, and family names keep their particles.
import type { Value } from '../model.js'

export type SplitRule = NonNullable<Value['split']>

/** Lower-case words that belong to the family name after them (`da Silva`, `dos Santos`). */
const PARTICLES = new Set(['da', 'das', 'de', 'do', 'dos', 'e'])

/**
 * The name's words cut into `parts` pieces, the template's columns in order; joined by single
 * spaces (blank pieces left out) they give back the words as sent, whatever the rule.
 */
export function splitName (name: string, parts: number, rule: SplitRule = 'firstSpace'): string[] {
  const words = name.trim().split(/\s+/).filter((w) => w !== '')
  const out = new Array<string>(parts).fill('')
  if (words.length === 0 || parts === 0) return out
  // A single word is a given name whatever the rule; one column takes every word.
  const family = parts === 1 || words.length === 1 ? 0 : familyWords(words, rule)
  const given = words.slice(0, words.length - family)
  // The given words fill the columns before the family's in order, the rest to the last of them.
  const givenColumns = family === 0 ? parts : parts - 1
  for (let i = 0; i < givenColumns; i++) out[i] = i < givenColumns - 1 ? (given[i] ?? '') : given.slice(i).join(' ')
  if (family > 0) out[parts - 1] = words.slice(words.length - family).join(' ')
  return out
}

/** How many of the last words are the family name under `rule`; at least one given word stays. */
function familyWords (words: string[], rule: SplitRule): number {
  // With a middle column too, the family still goes to the last: a two-word name never lands in the middle.
  if (rule === 'firstSpace') return words.length - 1
  if (rule === 'lastSpace') return 1
  let n = 1
  while (n < words.length - 1 && PARTICLES.has(words[words.length - 1 - n].toLowerCase())) n++
  return n
}
