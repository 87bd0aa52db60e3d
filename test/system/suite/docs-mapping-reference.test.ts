import { readFileSync } from 'node:fs'
import t from 'tap'
import { mappingReference } from '../../../scripts/mapping-reference/render.js'

const schema = JSON.parse(readFileSync('mapping.schema.json', 'utf8'))

t.test('docs/mapping-reference.md is the one generated from mapping.schema.json', async (t) => {
  t.equal(readFileSync('docs/mapping-reference.md', 'utf8'), mappingReference(schema), 'run `npm run reference` and commit docs/mapping-reference.md')
})

t.test('every key of the schema has its row, with its description', async (t) => {
  const reference = mappingReference(schema)
  t.match(reference, /\| `resources\.appointment\.table` \| [^|]*\*\*required\*\* \| The table holding one row per record of this resource\. Example: `dbo\.AGENDA`\./)
  t.match(reference, /\| `availability\.weekly\.weekdayBase` \| number \\\| string \| How `weekday` numbers the days: .* One of `0`, `1`, `iso`\. \|/)
  t.match(reference, /\| `Value\.collect\.by` \| list of string \|/)
  t.match(reference, /\| `WriteSpec\.key\.generate` \| string, \*\*required\*\* \| How the key is made: `identity`, [^|]*\. One of `identity`, `uuid`, `max`, `sequence`, `keyTable`\. \|/)
})

t.test('a default and examples in the schema reach the reference', async (t) => {
  const reference = mappingReference({
    type: 'object',
    required: ['version'],
    properties: {
      version: { type: 'number', const: 1 },
      cache: {
        type: 'object',
        properties: { ttlSeconds: { type: 'integer', minimum: 1, default: 60, examples: [300], description: 'How long lookups are kept' } }
      }
    }
  })
  t.match(reference, '| `cache.ttlSeconds` | integer (≥ 1) | How long lookups are kept. Default: `60`. Example: `300`. |')
  t.match(reference, '| `version` | number, **required** | Always `1`. |')
})
