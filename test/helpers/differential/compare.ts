// Comparing two answers to the same request: status, media type and body, after parsing and
// a stable (key-sorted) serialisation, so only what a caller could notice counts. Every
// difference is named by a JSON pointer into the body with both values.

export interface Answer { status: number, contentType: string, text: string }

export interface Difference {
  /** `METHOD url` of the request, with its label when it has one. */
  request: string
  /** JSON pointer into the body; `(status)` / `(content-type)` / `(body)` for the envelope. */
  path: string
  reference: string
  other: string
}

/** Key-sorted JSON: the same value always serialises to the same bytes. */
export function stableStringify (value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`
  const entries = Object.keys(value as Record<string, unknown>).sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`)
  return `{${entries.join(',')}}`
}

type Parsed = { json: true, value: unknown } | { json: false, text: string }

function parse (text: string): Parsed {
  if (text === '') return { json: false, text }
  try { return { json: true, value: JSON.parse(text) } } catch { return { json: false, text } }
}

// The media type without parameters: `; charset=utf-8` spelled differently is not a difference.
const mediaType = (ct: string): string => ct.split(';')[0].trim().toLowerCase()

const pointer = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1')

const show = (v: unknown): string => v === undefined ? '(absent)' : stableStringify(v)

/** Walks both values in step and lists each place where they part. */
function walk (a: unknown, b: unknown, path: string, out: Array<{ path: string, a: unknown, b: unknown }>): void {
  if (stableStringify(a) === stableStringify(b)) return
  const bothArrays = Array.isArray(a) && Array.isArray(b)
  const bothObjects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)
  if (bothArrays) {
    const [x, y] = [a as unknown[], b as unknown[]]
    if (x.length !== y.length) out.push({ path: `${path}/length`, a: x.length, b: y.length })
    for (let i = 0; i < Math.max(x.length, y.length); i++) walk(x[i], y[i], `${path}/${i}`, out)
    return
  }
  if (bothObjects) {
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>]
    for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) walk(x[k], y[k], `${path}/${pointer(k)}`, out)
    return
  }
  out.push({ path: path === '' ? '/' : path, a, b })
}

/** Every difference between the reference answer and another answer to one request. */
export function compareAnswers (request: string, reference: Answer, other: Answer): Difference[] {
  const diffs: Difference[] = []
  if (reference.status !== other.status) {
    // Another outcome altogether: field-by-field differences of a problem and a record say nothing more.
    diffs.push({ request, path: '(status)', reference: `${reference.status} ${reference.text.slice(0, 240)}`, other: `${other.status} ${other.text.slice(0, 240)}` })
    return diffs
  }
  if (mediaType(reference.contentType) !== mediaType(other.contentType)) {
    diffs.push({ request, path: '(content-type)', reference: reference.contentType, other: other.contentType })
  }
  const [a, b] = [parse(reference.text), parse(other.text)]
  if (a.json && b.json) {
    const found: Array<{ path: string, a: unknown, b: unknown }> = []
    walk(a.value, b.value, '', found)
    for (const d of found) diffs.push({ request, path: d.path, reference: show(d.a), other: show(d.b) })
  } else if (a.json !== b.json || (!a.json && !b.json && a.text !== b.text)) {
    diffs.push({ request, path: '(body)', reference: reference.text.slice(0, 300), other: other.text.slice(0, 300) })
  }
  return diffs
}

/** One line per difference, the way the report prints them. */
export function formatDifference (d: Difference, otherName: string): string {
  return `${d.request}\n    at ${d.path}\n    sqlite:        ${d.reference}\n    ${`${otherName}:`.padEnd(14)} ${d.other}`
}
