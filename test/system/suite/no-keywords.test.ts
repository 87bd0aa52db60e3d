// Issue 12: SQL is written in src/sql/ only, so a new database is one dialect file and not a
// hunt through the compiler. This keeps the rule true: a SQL keyword in a string or template
// literal anywhere else in src/ fails, named by file:line. src/idempotency/ and src/events/
// are Ponte's own SQLite stores (keys; the event log and fingerprints), not the clinic's
// database, so they are left out.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DIALECT_NAMES } from '../../../src/sql/databases.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const EXEMPT = ['src/sql/', 'src/idempotency/', 'src/events/']

// Upper case only: messages say "from" and "and"; SQL in this code base is written upper case.
// NULL alone is left out: messages name "NOT NULL" columns to the person fixing a mapping.
const KEYWORD = new RegExp([
  'SELECT', 'INSERT INTO', 'UPDATE', 'DELETE FROM', 'WHERE', 'JOIN', 'GROUP BY', 'ORDER BY', 'HAVING',
  'IS NULL', 'IS NOT NULL', 'NOT IN', 'IN \\(', 'NOT \\(', 'EXISTS', 'CASE', 'WHEN', 'THEN', 'ELSE',
  'AND', 'OR', 'LIKE', 'DESC', 'DISTINCT', 'UNION',
  'COALESCE\\(', 'NULLIF\\(', 'UPPER\\(', 'LOWER\\(', 'TRIM\\(', 'RTRIM\\(', 'CAST\\(', 'REPLACE\\(',
  'COUNT\\(', 'MAX\\(', 'MIN\\(', '1 = [01]'
].map((k) => `(?<![A-Za-z_])${k}(?![A-Za-z_])`).join('|'))

const DIALECT_BRANCH = new RegExp(`dialect(?:\\.name)?\\s*[!=]==?\\s*['"\`](?:${DIALECT_NAMES.join('|')})`)

interface Literal { text: string, line: number }

/**
 * The text of every string and template literal (a template's `${}` parts are code, scanned
 * as code, so literals nested in them count too). Comments are skipped; a `/` starts a regex
 * when the previous significant character cannot end an operand.
 */
export function literalsOf (source: string): Literal[] {
  const out: Literal[] = []
  let i = 0
  let line = 1
  let last = ''
  // Braces opened inside each enclosing `${`, so the closing `}` of a substitution is known.
  const templates: number[] = []
  const advance = (n: number) => {
    for (let k = 0; k < n; k++) if (source[i + k] === '\n') line++
    i += n
  }
  const template = () => {
    // At the first character after "`" or after the "}" closing a substitution.
    let text = ''
    const start = line
    while (i < source.length) {
      const ch = source[i]
      if (ch === '\\') { text += source.slice(i, i + 2); advance(2); continue }
      if (ch === '`') { advance(1); out.push({ text, line: start }); last = '`'; return }
      if (ch === '$' && source[i + 1] === '{') { advance(2); out.push({ text, line: start }); templates.push(0); last = '{'; return }
      text += ch
      advance(1)
    }
  }
  while (i < source.length) {
    const ch = source[i]
    const next = source[i + 1]
    if (ch === '/' && next === '/') { while (i < source.length && source[i] !== '\n') advance(1); continue }
    if (ch === '/' && next === '*') { const end = source.indexOf('*/', i + 2); advance((end < 0 ? source.length : end + 2) - i); continue }
    if (ch === '\'' || ch === '"') {
      const start = line
      advance(1)
      let text = ''
      while (i < source.length && source[i] !== ch && source[i] !== '\n') {
        if (source[i] === '\\') { text += source.slice(i, i + 2); advance(2) } else { text += source[i]; advance(1) }
      }
      advance(1)
      out.push({ text, line: start })
      last = ch
      continue
    }
    if (ch === '`') { advance(1); template(); continue }
    if (ch === '/' && !/[\w$)\]]/.test(last)) {
      // A regular expression literal: skip it, classes included.
      advance(1)
      let inClass = false
      while (i < source.length && source[i] !== '\n') {
        const c = source[i]
        if (c === '\\') { advance(2); continue }
        if (c === '[') inClass = true
        else if (c === ']') inClass = false
        else if (c === '/' && !inClass) break
        advance(1)
      }
      advance(1)
      last = ')'
      continue
    }
    if (templates.length > 0) {
      if (ch === '{') templates[templates.length - 1]++
      if (ch === '}') {
        if (templates[templates.length - 1] === 0) { templates.pop(); advance(1); template(); continue }
        templates[templates.length - 1]--
      }
    }
    if (!/\s/.test(ch)) last = ch
    advance(1)
  }
  return out
}

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(path)
    return e.name.endsWith('.ts') ? [path] : []
  })
}

t.test('the scanner finds keywords in literals and not in comments', async (t) => {
  /* eslint-disable no-template-curly-in-string -- source text the scanner reads */
  const sample = [
    '// SELECT in a comment',
    '/* a COUNT(*) in a block comment */',
    'const ok = "from the table and or"',
    'const re = /SELECT|AND/g',
    'const bad = `x ${f(\'IS NULL\')} y`',
    'const worse = `${a} ORDER BY ${b}`'
  ].join('\n')
  /* eslint-enable no-template-curly-in-string */
  const hits = literalsOf(sample).filter((l) => KEYWORD.test(l.text)).map((l) => `${l.line}:${l.text}`)
  t.same(hits, ['5:IS NULL', '6: ORDER BY '])
})

t.test('no SQL keyword in a literal outside src/sql/', async (t) => {
  const found: string[] = []
  for (const file of sourceFiles(join(root, 'src'))) {
    const rel = relative(root, file).split('\\').join('/')
    if (EXEMPT.some((e) => rel.startsWith(e))) continue
    const source = readFileSync(file, 'utf8')
    for (const l of literalsOf(source)) {
      const m = KEYWORD.exec(l.text)
      if (m) found.push(`${rel}:${l.line}: ${m[0]} in ${JSON.stringify(l.text.slice(0, 80))}`)
    }
    source.split('\n').forEach((text, i) => {
      if (DIALECT_BRANCH.test(text)) found.push(`${rel}:${i + 1}: branches on the dialect (a Dialect method belongs in src/sql/)`)
    })
  }
  t.same(found, [], 'SQL text belongs in a Dialect method (src/sql/)')
})
