// How a stored text code meets a code the mapping names (a `map` key, a condition's literal),
// in SQL and in JS from one rule, so a row the SQL keeps as X also reads as X. Trailing spaces
// never count (CHAR columns pad); case counts only under `codes: exact` (OSCAR's `b` and `B`);
// under `match: prefix` a key decides by the first characters of the stored code (`B` and `BS`).
import type { Dialect } from '../../sql/dialect.js'

export interface CodeRule {
  /** Case counts. */
  exact: boolean
  /** A key matches the stored code's first characters; the longest such key wins. */
  prefix: boolean
}

export function codeRule (v: { codes?: 'anyCase' | 'exact', match?: 'whole' | 'prefix' }): CodeRule {
  return { exact: v.codes === 'exact', prefix: v.match === 'prefix' }
}

/** A code of the mapping as compared (upper-cased unless exact). */
export function mappingCode (code: string, exact: boolean): string {
  return exact ? code : code.toUpperCase()
}

/** A stored value as compared: text without trailing spaces, upper-cased unless exact. */
export function storedCode (x: unknown, exact: boolean): string {
  const text = String(x).trimEnd()
  return exact ? text : text.toUpperCase()
}

/** SQL: the stored text as compared with a `mappingCode`; `length`: only its first characters (a placeholder). */
export function storedCodeSql (d: Dialect, expr: string, exact: boolean, length?: string): string {
  const trimmed = d.rtrim(expr)
  const cut = length === undefined ? trimmed : d.leading(trimmed, length)
  return exact ? d.exact(cut) : d.upper(cut)
}

/** The keys in the order they are tried: under `prefix`, longer first (`BS` before `B`). */
export function keysInOrder (keys: string[], rule: CodeRule): string[] {
  return rule.prefix ? [...keys].sort((a, b) => b.length - a.length) : keys
}

/** JS: which of `keys` a stored value reads as, if any. */
export function codeMatcher (keys: string[], rule: CodeRule): (stored: unknown) => string | undefined {
  if (!rule.prefix) {
    const byCode = new Map<string, string>()
    for (const k of keys) if (!byCode.has(mappingCode(k, rule.exact))) byCode.set(mappingCode(k, rule.exact), k)
    return (x) => x === null || x === undefined ? undefined : byCode.get(storedCode(x, rule.exact))
  }
  const ordered = keysInOrder(keys, rule).map((k) => [mappingCode(k, rule.exact), k] as const)
  return (x) => {
    if (x === null || x === undefined) return undefined
    const code = storedCode(x, rule.exact)
    return ordered.find(([c]) => code.startsWith(c))?.[1]
  }
}

/**
 * Keys of a map that stand for one code under its rule (`b` and `B` in any case): one of them
 * would never be read, so the mapping is refused naming both.
 */
export function sameCodes (keys: string[], rule: CodeRule): [string, string] | undefined {
  const seen = new Map<string, string>()
  for (const k of keys) {
    const code = mappingCode(k, rule.exact)
    const first = seen.get(code)
    if (first !== undefined) return [first, k]
    seen.set(code, k)
  }
  return undefined
}
