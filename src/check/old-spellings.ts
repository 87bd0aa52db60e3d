// Keys the mapping language still reads for mappings written before they were renamed: each
// is warned of at its line with the key that replaces it, so a mapping moves on before the
// old spelling is dropped. `true:` became `trueValues:` (editors read the key `true` as a
// boolean, src/mapping/schema.ts); the schema admits it in value objects only.
import type { MappingModel } from '../mapping/model.js'
import type { Findings } from './findings.js'

export function checkOldSpellings (model: Pick<MappingModel, 'doc'>, out: Findings): void {
  const visit = (node: unknown, path: string): void => {
    if (Array.isArray(node)) { node.forEach((item, i) => visit(item, `${path}/${i}`)); return }
    if (node === null || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
      if (key === 'true' && Array.isArray(value)) out.warning(at, '`true:` is the old spelling of `trueValues:`, still read: write `trueValues:` (editors read the key `true` as a boolean and flag it)')
      else visit(value, at)
    }
  }
  visit(model.doc, '')
}
