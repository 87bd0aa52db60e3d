// `extract`: one value taken out of a text column by a regular expression's capture group (a
// key of OpenEMR's PHP-serialized `pc_recurrspec`). Checked when the mapping loads; applied by
// the reader after the row is read, never in SQL, so it is the same on every database.

/**
 * How much of a stored text a pattern searches: its first 8,192 characters. A regular
 * expression can take time exponential (or a high power) in its input's length; bounding the
 * input, and refusing nested quantifiers, keeps one sloppy row from stalling a request.
 */
export const EXTRACT_MAX_CHARS = 8192

/** What is wrong with a pattern, if anything: it must compile, have exactly one capture group and no quantified group holding a quantifier. */
export function extractProblem (pattern: string): string | undefined {
  let re: RegExp
  try {
    re = new RegExp(pattern)
  } catch (e) {
    return `is not a regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`
  }
  // An alternative that matches the empty text shows every group (unmatched ones undefined).
  const groups = (new RegExp(`${re.source}|`).exec('') as RegExpExecArray).length - 1
  if (groups !== 1) return `has ${groups} capture groups: give exactly one, around the part to read (\`"freq";s:\\d+:"(\\d+)"\`); write other groups as \`(?:…)\``
  if (nestedQuantifier(pattern)) return 'repeats a group that itself repeats (`(a+)+`, `(\\d*,)*`) or holds alternatives (`(?:\\s|.)*`): such a pattern can take very long on some text; write it with one level of repetition and no repeated alternatives'
  if (broadRepeats(pattern) > 1) return 'repeats more than one wide match (`.*`, `\\s+`, `[^"]*` …): two of them can share the same text and take very long on some rows; keep one and spell the rest literally (`\\d+`, `"`)'
  return undefined
}

/** The reader's step: the first capture group of the first match in the text's first EXTRACT_MAX_CHARS characters, or undefined. */
export function extractor (pattern: string): (x: unknown) => string | undefined {
  const re = new RegExp(pattern)
  return (x) => {
    if (x === null || x === undefined) return undefined
    const text = String(x)
    const m = re.exec(text.length > EXTRACT_MAX_CHARS ? text.slice(0, EXTRACT_MAX_CHARS) : text)
    return m?.[1] ?? undefined
  }
}

/** Whether stored text is longer than an extract reads: what it extracts may be cut short. */
export const overlong = (x: unknown): boolean => typeof x === 'string' && x.length > EXTRACT_MAX_CHARS

/**
 * Whether a quantifier (`*`, `+`, `?`, `{n,m}`) follows a group that holds one: the shape
 * behind catastrophic backtracking. Escapes and character classes are skipped.
 */
function nestedQuantifier (pattern: string): boolean {
  // For each open group: whether a quantifier (or an alternative `|`) was seen inside it.
  const open: boolean[] = []
  let lastGroupQuantified = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') { i++; lastGroupQuantified = false; continue }
    if (c === '[') {
      // A class ends at the first unescaped `]` after its first character.
      for (i += pattern[i + 1] === '^' ? 2 : 1; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++
      lastGroupQuantified = false
      continue
    }
    if (c === '(') { open.push(false); lastGroupQuantified = false; continue }
    // Alternatives under a repetition backtrack like a nested quantifier when they overlap.
    if (c === '|') { if (open.length > 0) open[open.length - 1] = true; lastGroupQuantified = false; continue }
    if (c === ')') {
      lastGroupQuantified = open.pop() === true
      if (lastGroupQuantified && open.length > 0) open[open.length - 1] = true
      continue
    }
    if (c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)))) {
      // `(?:`, `(?=`, `*?`, `+?`: a `?` right after `(` or another quantifier is not one of its own.
      if (c === '?' && (pattern[i - 1] === '(' || '*+?}'.includes(pattern[i - 1] ?? ''))) continue
      // `?` and `{0,1}` make a group optional, not repeated.
      const repeats = c !== '?' && !/^\{[01](,[01])?\}/.test(pattern.slice(i))
      if (lastGroupQuantified && repeats) return true
      if (open.length > 0) open[open.length - 1] = true
      lastGroupQuantified = false
      continue
    }
    lastGroupQuantified = false
  }
  return false
}

/**
 * How many unbounded repetitions (`*`, `+`, `{n,}`) a pattern puts on wide atoms — `.`, `\s`,
 * `\S`, `\w`, `\W`, `\D` or a negated class — which can all match the same stretch of text
 * (`(.*),.*,.*;` is polynomial of high degree on a row of commas).
 */
function broadRepeats (pattern: string): number {
  let n = 0
  const atoms = /\\.|\[\^?(?:\\.|[^\]])*\]|./gs
  for (let m = atoms.exec(pattern); m !== null; m = atoms.exec(pattern)) {
    const atom = m[0]
    const wide = atom === '.' || /^\\[sSwWD]$/.test(atom) || atom.startsWith('[^')
    const next = pattern.slice(atoms.lastIndex)
    if (wide && /^(?:[*+]|\{\d+,\})/.test(next)) n++
  }
  return n
}
