// Prints docs/mapping-reference.md from mapping.schema.json: `npm run reference`.
import { readFileSync } from 'node:fs'
import { mappingReference } from './mapping-reference/render.js'

const schemaFile = new URL('../mapping.schema.json', import.meta.url)
process.stdout.write(mappingReference(JSON.parse(readFileSync(schemaFile, 'utf8'))))
