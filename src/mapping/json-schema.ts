// The published JSON Schema of the mapping language (mapping.schema.json), for editors.
// TypeBox inlines shared definitions; here every titled definition is written once under
// $defs and referenced elsewhere, which keeps the file small enough to read. A reference
// keeps what its place says beside it (`description`, `examples`…: what an editor shows on
// hover there), and the definition is the shared one as written in schema.ts.
import { ConditionLeaf, Join, Mapping, Where, WriteSpec, WriteValue } from './schema.js'

const SHARED: Record<string, unknown> = { ConditionLeaf, Where, Join, WriteValue, WriteSpec }
const ANNOTATIONS = ['description', 'examples', 'default', 'deprecated'] as const

/** The annotations `node` has of its own (not those of `shared`, the definition it names). */
function annotations (node: Record<string, unknown>, shared: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(ANNOTATIONS.filter((k) => k in node && JSON.stringify(node[k]) !== JSON.stringify(shared[k])).map((k) => [k, node[k]]))
}

export function mappingJsonSchema (): Record<string, unknown> {
  const defs: Record<string, unknown> = {}
  const walk = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false))
    if (node === null || typeof node !== 'object') return node
    const obj = node as Record<string, unknown>
    // A recursive definition (TypeBox Cyclic: `{ $defs, $ref: 'Value' }`, inner `{ $ref: 'Value' }`)
    // is written once under $defs like the titled ones, its references made JSON pointers.
    if (typeof obj.$ref === 'string' && !obj.$ref.startsWith('#')) {
      for (const [name, def] of Object.entries((obj.$defs ?? {}) as Record<string, unknown>)) {
        if (!(name in defs)) {
          defs[name] = {}
          defs[name] = walk(def, true)
        }
      }
      return { $ref: `#/$defs/${obj.$ref}`, ...annotations(obj) }
    }
    const title = typeof obj.title === 'string' ? obj.title : undefined
    if (!top && title && title in SHARED) {
      const shared = JSON.parse(JSON.stringify(SHARED[title])) as Record<string, unknown>
      if (!(title in defs)) {
        defs[title] = {}
        defs[title] = walk(shared, true)
      }
      return { $ref: `#/$defs/${title}`, ...annotations(obj, shared) }
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(obj)) {
      if (k === '~kind' || k === '~optional' || typeof k === 'symbol' || (k === '$id' && v !== (Mapping as { $id?: string }).$id)) continue
      out[k] = walk(v, false)
    }
    return out
  }
  const root = walk(JSON.parse(JSON.stringify(Mapping)), true) as Record<string, unknown>
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...root, $defs: defs }
}

export function mappingJsonSchemaText (): string {
  return JSON.stringify(mappingJsonSchema(), null, 2) + '\n'
}
