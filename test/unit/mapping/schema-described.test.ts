// Every key of mapping.schema.json carries a description: it is what editors show on hover,
// and what the generated reference (docs/mapping-reference.md) prints beside the key. A key
// that names a shared definition ($ref) needs its own description there too, saying what it
// means at that place.
import t from 'tap'
import { mappingJsonSchema } from '../../../src/mapping/json-schema.js'

interface Key { path: string, node: Record<string, unknown> }

/** Every property key of the schema, in $defs as well, with the JSON pointer that reaches it. */
function propertyKeys (node: unknown, path: string, out: Key[] = []): Key[] {
  if (Array.isArray(node)) node.forEach((n, i) => propertyKeys(n, `${path}/${i}`, out))
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return out
  const obj = node as Record<string, unknown>
  for (const [key, child] of Object.entries((obj.properties ?? {}) as Record<string, Record<string, unknown>>)) out.push({ path: `${path}/properties/${key}`, node: child })
  for (const [key, child] of Object.entries(obj)) propertyKeys(child, `${path}/${key}`, out)
  return out
}

const schema = mappingJsonSchema()
const keys = propertyKeys(schema, '#')

t.test('every property key of the generated schema has a description of its own', async (t) => {
  t.comment(`${keys.length} property keys`)
  t.ok(keys.length >= 340, `${keys.length} keys walked (the whole schema, $defs included)`)
  const undescribed = keys.filter((k) => typeof k.node.description !== 'string' || k.node.description.trim() === '').map((k) => k.path)
  t.same(undescribed, [], `${undescribed.length} of ${keys.length} keys have no description`)
})

t.test('the top-level keys and the resources say what they are for the clinic', async (t) => {
  const top = schema.properties as Record<string, { description?: string }>
  t.ok(Object.keys(top).length >= 13)
  for (const [key, node] of Object.entries(top)) t.type(node.description, 'string', key)
  t.match(top.states.description, /states/)
  t.match(top.resources.description, /appointment/)
  t.match(top.relations.description, /filters/)
  t.match(top.availability.description, /\/availability/)
})

t.test('a key that names a shared definition keeps its own description beside the $ref', async (t) => {
  const props = (schema.properties as any).resources.properties.appointment.properties
  t.match(props.where, { $ref: '#/$defs/Where', description: /soft deletes/ })
  t.match(props.state, { $ref: '#/$defs/Value', description: /state/, examples: Array })
  const defs = schema.$defs as Record<string, { description?: string }>
  t.match(defs.Where.description, /^Rows that exist for the interface/, 'the shared definition keeps its own')
})
