// What `ponte check` tells clinic IT: one finding per mistake, placed at the mapping file's
// line and named in the mapping's own words (resources, fields, columns) — never the
// compiler's aliases or statement names, and never a value read from a patient's row.
import type { MappingModel } from '../mapping/model.js'

export type Severity = 'problem' | 'warning' | 'ok'

export interface Finding {
  severity: Severity
  /** JSON pointer of the mapping place, e.g. `/resources/appointment/start/datetime`. */
  path: string
  line?: number
  column?: number
  /** The mapping place in words: `appointment start.datetime`, `relation professional ↔ location`. */
  subject: string
  message: string
  /** Found by a write the probe made: it says nothing about reading the same resource. */
  byWrite?: true
}

/** Collects findings; the same mistake found twice (by the catalog and by a probe) is said once. */
export class Findings {
  readonly list: Finding[] = []
  private readonly seen = new Set<string>()

  constructor (private readonly model: Pick<MappingModel, 'locate' | 'doc'>) {}

  add (severity: Severity, path: string, message: string, byWrite = false): void {
    const key = `${severity}|${path}|${message}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.list.push({ severity, path, ...this.model.locate(path), subject: subjectOf(path, this.model.doc), message, ...byWrite ? { byWrite } : {} })
  }

  problem (path: string, message: string): void { this.add('problem', path, message) }
  /** A problem a probe's write showed (at a ref's or field's line, as often as under `write`). */
  writeProblem (path: string, message: string): void { this.add('problem', path, message, true) }
  warning (path: string, message: string): void { this.add('warning', path, message) }
  ok (path: string, message: string): void { this.add('ok', path, message) }
  /** A write path check could not prove: a warning, and the verdict says how many. */
  notProven (path: string, message: string): void {
    this.unproven++
    this.add('warning', path, message)
  }

  unproven = 0

  /** A problem already reported at this place or under it (a probe of it would only repeat it); `upTo`: among the first findings only. */
  covers (path: string, upTo = this.list.length): boolean {
    // What a write cannot do says nothing about the reads of the same resource.
    const reading = !path.includes('/write')
    return this.list.slice(0, upTo).some((f) => f.severity === 'problem' && !(reading && (f.byWrite === true || f.path.includes('/write'))) &&
      (f.path === path || f.path.startsWith(path + '/') || path.startsWith(f.path + '/')))
  }

  /** Tables and columns already reported missing (lower-cased), so a probe tripping on one is not a second report. */
  readonly missing = new Set<string>()

  get problems (): Finding[] { return this.list.filter((f) => f.severity === 'problem') }
}

/** `/resources/appointment/write/set/created_by` → `appointment write.set.created_by`. */
export function subjectOf (path: string, doc: unknown): string {
  const parts = path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (parts.length === 0) return 'mapping'
  // `…/column` says no more than the place it belongs to (a collected child row's column does).
  if (parts.length > 2 && parts[parts.length - 1] === 'column' && parts[parts.length - 2] !== 'collect') parts.pop()
  const dotted = (xs: string[]) => xs.map((p, i) => /^\d+$/.test(p) ? `[${p}]` : (i > 0 ? `.${p}` : p)).join('')
  if (parts[0] === 'resources' && parts.length > 1) return [parts[1], dotted(parts.slice(2))].filter(Boolean).join(' ')
  if (parts[0] === 'relations' && parts.length > 1) {
    const rel = (doc as { relations?: { between?: string[] }[] }).relations?.[Number(parts[1])]
    return [`relation ${rel?.between?.join(' ↔ ') ?? parts[1]}`, dotted(parts.slice(2))].filter(Boolean).join(' ')
  }
  if (parts[0] === 'availability' && parts.length > 1) {
    // A list of sources (availability blocks) keeps the item's number: the line tells which.
    const head = /^\d+$/.test(parts[2] ?? '') ? `${parts[1]}[${parts[2]}]` : parts[1]
    const rest = parts.slice(/^\d+$/.test(parts[2] ?? '') ? 3 : 2)
    return `availability ${head}${rest.length > 0 ? `.${dotted(rest)}` : ''}`
  }
  return dotted(parts)
}

export function formatFinding (file: string, f: Finding): string {
  const mark = f.severity === 'problem' ? '✗' : f.severity === 'warning' ? '!' : '✓'
  const where = f.line !== undefined && f.severity !== 'ok' ? `${file}:${f.line}:${f.column ?? 1}: ` : ''
  return `${mark} ${where}${f.subject}: ${f.message}`
}
