// Request input is refused, never guessed at (design notes §1). One validator for every part
// of every route:
//  - text no legacy column should receive (C0 controls, DEL, lone surrogates) is refused
//    wherever it appears: query values, path parameters, every string of a JSON body;
//  - query strings and paths arrive as text and are converted to the schema's declared types
//    here, strictly (Ajv's coercion reads `0x10`, ` 5` and `+5` as numbers): integers are
//    plain digits, booleans exactly `true` or `false`; JSON bodies are never converted, so
//    `{ "name": 123 }` is a 400 instead of a client called "123";
//  - a query parameter given twice, or malformed (bad percent-encoding), is refused by name;
//    an unknown one by the schemas' `additionalProperties: false`.
import AjvModule, { type Options, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify'

// Both packages are CommonJS with a default export under `default`.
const Ajv = AjvModule.default
const addFormats = formatsModule.default

type Issue = FastifySchemaValidationError

/** A query value whose percent-encoding is not UTF-8 (`%E0%A4%A`, `%ED%A0%80`): kept so validation can name it. */
export class MalformedQueryValue {
  constructor (readonly raw: string) {}
}

function decodeComponent (text: string): string | undefined {
  try { return decodeURIComponent(text.replace(/\+/g, ' ')) } catch { return undefined }
}

/**
 * The query string as fastify's `querystringParser`: like the default parser (repeated keys
 * become arrays, no nesting), except that a value that does not decode is marked, not passed on raw.
 */
export function parseQuery (query: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null)
  for (const pair of query.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const rawKey = eq < 0 ? pair : pair.slice(0, eq)
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1)
    const key = decodeComponent(rawKey) ?? rawKey
    const value = decodeComponent(rawValue) ?? new MalformedQueryValue(rawValue)
    const seen = out[key]
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return out
}

// C0 controls and DEL; tab and newline included: no field of the interface holds them.
const CONTROL = /[\u0000-\u001f\u007f]/ // eslint-disable-line no-control-regex

// Unicode's noncharacters (U+FDD0–U+FDEF and the last two of every plane): never text to keep.
const NONCHARACTER = /[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/

/** Why this text cannot be taken as input, if it cannot. */
export function textProblem (text: string): string | undefined {
  if (CONTROL.test(text)) return 'must not contain control characters (U+0000–U+001F, U+007F)'
  if (NONCHARACTER.test(text)) return 'must not contain Unicode noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF)'
  // ES2024, in Node 20; the project's lib is ES2023.
  if (!(text as unknown as { isWellFormed: () => boolean }).isWellFormed()) return 'must be well-formed Unicode (no lone surrogate)'
  return undefined
}

const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Whether every string in a value (object keys included) passes textProblem: what nearly
 * every request is, found without the paths and issue objects textIssues builds.
 */
function allTextFine (root: unknown): boolean {
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'string') {
      if (textProblem(value) !== undefined) return false
    } else if (Array.isArray(value)) {
      for (const v of value) stack.push(v)
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) {
        if (textProblem(k) !== undefined) return false
        stack.push((value as Record<string, unknown>)[k])
      }
    }
  }
  return true
}

/** Every string in a value (object keys included), checked; a walk over an explicit stack, so nesting depth cannot overflow the call stack. */
function textIssues (root: unknown): Issue[] {
  if (allTextFine(root)) return []
  const issues: Issue[] = []
  const stack: Array<[unknown, string]> = [[root, '']]
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string]
    if (typeof value === 'string') {
      const message = textProblem(value)
      if (message) issues.push({ instancePath: path, keyword: 'text', schemaPath: '', params: {}, message })
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push([v, `${path}/${i}`]))
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const message = textProblem(k)
        if (message) issues.push({ instancePath: `${path}/${pointer(k)}`, keyword: 'text', schemaPath: '', params: {}, message: `(the name) ${message}` })
        stack.push([v, `${path}/${pointer(k)}`])
      }
    }
  }
  return issues
}

const INTEGER = /^(0|[1-9][0-9]*)$/

interface PropertySchema { type?: string }

/**
 * Query or path values (text) converted in place to their declared types. What does not convert
 * stays text, so the schema refuses it ("must be integer"); what repeats or does not decode is an
 * issue here.
 */
function convertText (schema: { properties?: Record<string, PropertySchema> }, data: Record<string, unknown>): Issue[] {
  const issues: Issue[] = []
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      issues.push({ instancePath: `/${pointer(key)}`, keyword: 'once', schemaPath: '', params: {}, message: 'must appear once' })
    } else if (value instanceof MalformedQueryValue) {
      issues.push({ instancePath: `/${pointer(key)}`, keyword: 'encoding', schemaPath: '', params: {}, message: 'is not valid percent-encoded UTF-8' })
    } else if (typeof value === 'string') {
      const type = schema.properties?.[key]?.type
      if (type === 'integer' && INTEGER.test(value)) data[key] = Number(value)
      else if (type === 'boolean' && (value === 'true' || value === 'false')) data[key] = value === 'true'
    }
  }
  return issues
}

function make (options: Options): InstanceType<typeof Ajv> {
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, coerceTypes: false, ...options })
  addFormats(ajv)
  return ajv
}

const UNKNOWN: Record<string, string> = { querystring: 'is not a parameter of this route', body: 'is not a field of this request', params: 'is not a parameter of this route' }

/** Where an issue is: an unexpected key is an issue about that key. */
function placeOf (e: Issue): string {
  const key = e.keyword === 'additionalProperties' ? (e.params as { additionalProperty?: string }).additionalProperty : undefined
  return key === undefined ? e.instancePath : `${e.instancePath}/${pointer(key)}`
}

/** One part's validator: own checks first, then the schema; one error per place, ours preferred. */
function validatorFor (validate: ValidateFunction, part: string): ((data: unknown) => boolean) & { errors?: Issue[] | null } {
  const check = (data: unknown): boolean => {
    const own = textIssues(data)
    if (part !== 'body' && data !== null && typeof data === 'object') own.push(...convertText(validate.schema as object, data as Record<string, unknown>))
    const valid = validate(data)
    if (valid && own.length === 0) {
      check.errors = null
      return true
    }
    const reported = new Set(own.map((i) => i.instancePath))
    const schemaIssues = valid
      ? []
      : (validate.errors as Issue[] | null | undefined ?? []).filter((e) => !reported.has(placeOf(e))).map((e) =>
          e.keyword === 'additionalProperties' && UNKNOWN[part] ? { ...e, message: UNKNOWN[part] } : e)
    check.errors = [...own, ...schemaIssues]
    return check.errors.length === 0
  }
  check.errors = null as Issue[] | null
  return check
}

export function validatorCompiler (): FastifySchemaCompiler<unknown> {
  const ajv = make({})
  return ({ schema, httpPart }) => validatorFor(ajv.compile(schema as object), httpPart ?? 'request')
}
