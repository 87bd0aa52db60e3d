// Reads a mapping file (YAML or JSON), validates it against the schema, and reports every
// problem with file, line and path. Semantic checks (references, vocabulary) follow in model.ts.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs'
import { LineCounter, parseDocument, isNode, isScalar, visit, type Document, type Node } from 'yaml'
import { Compile } from 'typebox/compile'
import { Settings } from 'typebox/system'
import type { TProperties, TSchema } from 'typebox'
import { Mapping, NO_CONTROL_CHARACTERS, VALUE_DEFS, type MappingDoc } from './schema.js'
import { MappingError, type MappingIssue } from './errors.js'

/** Keywords that may stand beside a `$ref` to a value without validating anything. */
const NOT_VALIDATING = new Set(['$ref', '$defs', '$id', 'title', 'description', '$comment', 'examples'])
// The same schema, only written differently: the static type is Mapping's.
const validator = Compile(definitionsById(), byReference(Mapping) as typeof Mapping)

/**
 * The mapping schema as the validator is compiled from it: every nested value a bare `$ref`
 * to the one definition, handed to the compiler by name. As TypeBox builds the schema, each of
 * the ~60 places a value may go holds a Cyclic copy (`{ $defs, $ref: 'Value' }`), and compiling
 * it walked the whole schema for every reference: 2.4 s at the start of every process that
 * reads a mapping (the server, `ponte check`, each test file), against 0.2 s this way.
 */
function byReference (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(byReference)
  if (node === null || typeof node !== 'object') return node
  const obj = node as Record<string, unknown>
  if (typeof obj.$ref === 'string' && Object.hasOwn(VALUE_DEFS, obj.$ref)) {
    // Only the reference is kept: a keyword that validates beside it would be lost here.
    const beside = Object.keys(obj).filter((k) => !NOT_VALIDATING.has(k) && !k.startsWith('~'))
    if (beside.length > 0) throw new Error(`mapping schema: ${beside.join(', ')} beside a $ref to ${obj.$ref} would not be validated`)
    return { $ref: obj.$ref }
  }
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, byReference(v)]))
}

/** The definitions a bare `$ref` names, each with its own `$id`: the compiler then takes it as it is, without searching the schema for it. */
function definitionsById (): TProperties {
  return Object.fromEntries(Object.entries(VALUE_DEFS).map(([name, def]) => [name, { ...(byReference(def) as TSchema), $id: name }]))
}

export interface SourceDoc {
  file: string
  doc: MappingDoc
  /** Locates a JSON pointer in the source, for semantic errors found later. */
  locate: (path: string) => { line?: number, column?: number }
}

/**
 * The largest mapping file read: a hundred times the largest sample. Parsing is synchronous
 * (at start and on a reload, while serving) and holds the whole document several times over.
 */
export const MAX_MAPPING_BYTES = 1024 * 1024

export function readMappingFile (file: string): SourceDoc {
  let text: string
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    const stat = fstatSync(fd)
    // A device or a pipe says size 0 and never ends: only a regular file is read.
    if (!stat.isFile()) throw new MappingError([{ file, path: '', message: 'not a regular file' }])
    if (stat.size > MAX_MAPPING_BYTES) {
      throw new MappingError([{ file, path: '', message: `${(stat.size / 1024 / 1024).toFixed(1)} MB, more than a mapping may be (${MAX_MAPPING_BYTES / 1024 / 1024} MB): is this the mapping file?` }])
    }
    text = readFileSync(fd, 'utf8')
  } catch (err) {
    if (err instanceof MappingError) throw err
    throw new MappingError([{ file, path: '', message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})` }])
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  return parseMapping(text, file)
}

export function parseMapping (text: string, file = '<mapping>'): SourceDoc {
  const lines = new LineCounter()
  // Duplicate keys are found below: the library's own check compares every key of a map with
  // every other, and a large map then takes minutes.
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false })
  if (document.errors.length > 0) {
    // One mistake often trips several errors (an unclosed `[` is both a flow sequence and a
    // map not ended): the first per line is the one to read, at the line that holds it.
    const byLine = new Map<number, MappingIssue>()
    for (const e of document.errors) {
      const pos = lines.linePos(unclosedAt(text, e.message, e.pos[0]))
      if (!byLine.has(pos.line)) byLine.set(pos.line, { file, path: '', line: pos.line, column: pos.col, message: e.message.split('\n')[0] })
    }
    throw new MappingError([...byLine.values()].slice(0, 1))
  }
  const duplicate = firstDuplicateKey(document)
  if (duplicate) {
    const pos = lines.linePos(duplicate.range?.[0] ?? 0)
    throw new MappingError([{ file, path: '', line: pos.line, column: pos.col, message: `the key ${JSON.stringify(String(duplicate.value))} is given twice in the same map` }])
  }
  const locate = locator(document, lines)
  latin1Scalars(document)
  let doc: unknown
  try {
    doc = document.toJS()
  } catch (err) {
    // Aliases that expand past the library's limit (a YAML "billion laughs"), and whatever
    // else it cannot turn into values: the file's mistake, said in one line.
    throw new MappingError([{ file, path: '', message: `cannot be read: ${String((err as Error).message).split('\n')[0]}` }])
  }
  if (!validator.Check(doc)) {
    throw new MappingError(schemaIssues(doc, file, locate))
  }
  return { file, doc, locate }
}

/** The first key that repeats an earlier scalar key of its map (what YAML calls not unique). */
function firstDuplicateKey (document: Document): (Node & { value?: unknown }) | undefined {
  let found: (Node & { value?: unknown }) | undefined
  visit(document, {
    Map (_key, map) {
      const seen = new Set<unknown>()
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue
        if (seen.has(pair.key.value)) { found = pair.key; return visit.BREAK }
        seen.add(pair.key.value)
      }
    }
  })
  return found
}

// eslint-disable-next-line no-control-regex -- every Latin-1 code point, control characters included
const LATIN1 = /^[\u0000-\u00ff]*$/

/**
 * Every string scalar of the document (keys included) that Latin-1 can hold, stored one byte a
 * character, before toJS() makes values and property names of them. V8 keeps a string cut
 * from a text the representation of that text: one character beyond Latin-1 in the file (a '→'
 * in a comment) made every name and label read from it two bytes a character, and every JSON
 * text they were written into as well: a response naming a mapped label (an appointment's
 * classification) was twice its size in memory and took Node's slow paths to count its bytes
 * and write them. The content is unchanged; tags, aliases and anchors are left to toJS().
 */
function latin1Scalars (document: Document): void {
  visit(document, {
    Scalar (_key, node) {
      if (typeof node.value === 'string' && LATIN1.test(node.value)) node.value = Buffer.from(node.value, 'latin1').toString('latin1')
    }
  })
}

function locator (document: Document, lines: LineCounter) {
  return (path: string) => {
    const keys = path.split('/').slice(1).map(unescapePointer)
    // The deepest node that exists: an error about a missing key points at its parent.
    for (let n = keys.length; n >= 0; n--) {
      const node = document.getIn(keys.slice(0, n).map(asKey), true)
      if (isNode(node) && node.range) {
        const pos = lines.linePos(node.range[0])
        return { line: pos.line, column: pos.col }
      }
    }
    return {}
  }
}

function asKey (k: string): string | number {
  return /^\d+$/.test(k) ? Number(k) : k
}

function unescapePointer (s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~')
}

// TypeBox reports every branch of a union; a person wants one line per place, saying
// what was expected there.
function schemaIssues (doc: unknown, file: string, locate: SourceDoc['locate']): MappingIssue[] {
  const byPath = new Map<string, Set<string>>()
  for (const e of likelyBranches(allErrors(doc))) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'additionalProperties') continue
    const message = e.keyword === 'boolean' ? 'unknown key (not part of the mapping language here)' : describe(e)
    const messages = byPath.get(e.instancePath) ?? new Set<string>()
    messages.add(message)
    byPath.set(e.instancePath, messages)
  }
  // A condition that mixes a test with a group only gets "unknown key" from each branch: said once, with why.
  for (const path of [...byPath.keys()]) {
    const parent = path.slice(0, path.lastIndexOf('/'))
    const why = byPath.has(path) ? mixedCondition(at(doc, parent)) : undefined
    if (why === undefined) continue
    for (const p of [...byPath.keys()]) if (p === parent || p.startsWith(parent + '/')) byPath.delete(p)
    byPath.set(parent, new Set([why]))
  }
  const paths = [...byPath.keys()]
  // A union branch that failed at the top is noise when another branch got deeper.
  const deepest = paths.filter((p) => !paths.some((o) => o !== p && o.startsWith(p + '/')))
  return deepest.slice(0, 20).map((path) => ({
    file, path, ...locate(path), message: joinExpectations([...(byPath.get(path) as Set<string>)])
  }))
}

type SchemaError = ReturnType<typeof validator.Errors>[number]

/**
 * Every error, not the validator's first 8: a nested condition's own mistake comes after
 * each union branch's complaints about the levels above it. Bounded all the same.
 */
function allErrors (doc: unknown): SchemaError[] {
  const before = Settings.Get().maxErrors
  Settings.Set({ maxErrors: 500 })
  try {
    return [...validator.Errors(doc)]
  } finally {
    Settings.Set({ maxErrors: before })
  }
}

/**
 * Errors from the union branches the value may have meant: a branch missing its required key
 * (`all` on a test of a column) was not meant, when another branch at the same place was.
 */
function likelyBranches (errors: SchemaError[]): SchemaError[] {
  const under = (path: string, above: string): boolean => path === above || path.startsWith(above + '/')
  // Each error's place and branch at every union its schema path passes through.
  const places = errors.flatMap((e) => unionsAbove(e.schemaPath).map(([union, branch]) => ({ path: e.instancePath, union, branch })))
  const missing = errors.filter((e) => e.keyword === 'required' && /\/anyOf\/\d+$/.test(e.schemaPath)).map((e) => ({ path: e.instancePath, branch: e.schemaPath }))
  const notMeant = (path: string, branch: string): boolean => missing.some((m) => m.path === path && m.branch === branch)
  const ruledOut = missing.filter((m) => {
    const union = m.branch.replace(/\/\d+$/, '')
    return places.some((p) => p.union === union && under(p.path, m.path) && !notMeant(m.path, p.branch))
  })
  return errors.filter((e) => !ruledOut.some((r) => under(e.instancePath, r.path) && under(e.schemaPath, r.branch)))
}

/** The union branches a schema path passes through: `[…/anyOf, …/anyOf/N]` for each. */
function unionsAbove (schemaPath: string): [string, string][] {
  const out: [string, string][] = []
  const re = /\/anyOf\/\d+/g
  for (let m = re.exec(schemaPath); m; m = re.exec(schemaPath)) {
    const end = m.index + m[0].length
    out.push([schemaPath.slice(0, m.index + '/anyOf'.length), schemaPath.slice(0, end)])
  }
  return out
}

const GROUPS = ['all', 'any', 'not']

/** Why an object holding a condition group (`all`, `any`, `not`: keys only conditions have) beside other keys is no condition. */
function mixedCondition (node: unknown): string | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined
  const keys = Object.keys(node)
  const groups = keys.filter((k) => GROUPS.includes(k))
  const others = keys.filter((k) => !GROUPS.includes(k)).map((k) => `\`${k}\``)
  if (groups.length === 0 || keys.length === 1) return undefined
  const named = groups.map((g) => `\`${g}\``).join(' and ')
  if (others.length === 0) return `a condition is one group: ${named} cannot share it; nest one inside the other (\`all: [{ any: [...] }, ...]\`)`
  const into = groups[0] === 'not' ? 'wrap both in `all`' : `write the test as one more condition inside \`${groups[0]}\`, or wrap both in \`all\``
  return `a condition is either one test on a column or one group (all, any, not): ${others.join(', ')} cannot stand beside ${named}; ${into}`
}

/** The part of the document at a JSON pointer. */
function at (doc: unknown, path: string): unknown {
  let node = doc
  for (const k of path.split('/').slice(1).map(unescapePointer)) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[k] : undefined
  return node
}

/** An unclosed `[` or `{` is found where the next line starts; the mistake is where it opened. */
function unclosedAt (text: string, message: string, at: number): number {
  const bracket = /must be sufficiently indented and end with a ([\]}])/.exec(message)?.[1]
  if (!bracket) return at
  const open = bracket === ']' ? '[' : '{'
  let depth = 0
  for (let i = Math.min(at, text.length) - 1; i >= 0; i--) {
    if (text[i] === bracket) depth++
    else if (text[i] === open && depth-- === 0) return i
  }
  return at
}

function joinExpectations (messages: string[]): string {
  const types = messages.filter((m) => m.startsWith('must be ') && !m.includes('equal') && !m.startsWith('must be one of'))
  const rest = messages.filter((m) => !types.includes(m))
  const typeLine = types.length > 1 ? `must be ${types.map((m) => m.slice(8)).join(' or ')}` : types[0]
  return [typeLine, ...rest].filter(Boolean).join('; ')
}

/** The constants of the union a `…/anyOf/N` const branch belongs to, when all its branches are constants. */
function enumAt (schemaPath: string | undefined): string[] | undefined {
  const m = /^#(.*)\/anyOf\/\d+$/.exec(schemaPath ?? '')
  if (!m) return undefined
  let node: unknown = Mapping
  for (const k of m[1].split('/').slice(1)) {
    // A nested value's schema is a reference to the one definition (schema.ts VALUE_DEFS).
    const ref = (node as { $ref?: unknown } | undefined)?.$ref
    if (typeof ref === 'string' && Object.hasOwn(VALUE_DEFS, ref)) node = VALUE_DEFS[ref as keyof typeof VALUE_DEFS]
    node = (node as Record<string, unknown> | undefined)?.[unescapePointer(k)]
  }
  const branches = (node as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf
  if (!branches?.every((b) => b.const !== undefined)) return undefined
  return branches.map((b) => String(b.const))
}

function describe (e: { keyword: string, message: string, params: Record<string, unknown>, schemaPath?: string }): string {
  if (e.keyword === 'additionalProperties') {
    const extra = e.params.additionalProperties
    return `unknown key ${JSON.stringify(Array.isArray(extra) ? extra.join(', ') : extra)}`
  }
  if (e.keyword === 'required') {
    const missing = e.params.requiredProperties
    return `missing ${Array.isArray(missing) ? missing.join(', ') : String(missing)}`
  }
  // An enum is a union of constants: every branch says the same one line listing them all
  // (taken from the schema: the validator stops reporting after a few branches).
  const allowed = e.keyword === 'const' ? enumAt(e.schemaPath) : undefined
  if (allowed) return `must be one of ${allowed.join(', ')}`
  if (e.keyword === 'pattern' && e.params.pattern === NO_CONTROL_CHARACTERS) return 'must not hold control characters (line breaks, tabs)'
  if (e.keyword === 'const' || e.keyword === 'enum') {
    return `${e.message} (${JSON.stringify(e.params.allowedValue ?? e.params.allowedValues)})`
  }
  return e.message
}
