/** One thing wrong in a mapping file, located for clinic IT's editor. */
export interface MappingIssue {
  file: string
  /** JSON pointer inside the document, e.g. `/resources/appointment/start/hour`. */
  path: string
  line?: number
  column?: number
  message: string
}

export class MappingError extends Error {
  constructor (readonly issues: MappingIssue[]) {
    super(issues.map(formatIssue).join('\n'))
    this.name = 'MappingError'
  }
}

export function formatIssue (i: MappingIssue): string {
  const where = i.line !== undefined ? `${i.file}:${i.line}:${i.column ?? 1}` : i.file
  return `${where}: ${i.path || '/'}: ${i.message}`
}
