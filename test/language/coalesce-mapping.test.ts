// Composed values in the mapping file: the published JSON Schema accepts them (and every
// mapping in the tree), mistakes inside a nested value are reported at that value's own line,
// nesting is bounded, and `ponte check` checks every column of a nested value.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { parse as parseYaml } from 'yaml'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel, MAX_VALUE_DEPTH } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'
import { COMPOSE_MAPPING, composeInstallation } from '../helpers/compose-installation.js'
import { NORMALISED_MAPPING } from '../helpers/normalised-installation.js'

const issuesOf = (yaml: string): { path: string, line?: number, message: string }[] => {
  try {
    buildModel(parseMapping(yaml, 'aurora.yaml'))
  } catch (err) {
    if (err instanceof MappingError) return err.issues
    throw err
  }
  return []
}
const lineOf = (yaml: string, text: string): number => yaml.split('\n').findIndex((l) => l.includes(text)) + 1

const NAME = `      name:
        coalesce:
          - { template: '{nm.last_nm}, {nm.first_nm}' }
          - rules:
              - when: { column: use_social, eq: 1 }
                then: { coalesce: [social_nm, full_name] }
              - column: full_name
`

t.test('mapping.schema.json accepts composed values and every mapping in the tree, and refuses a wrong nested one', async (t) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const validate = ajv.compile(JSON.parse(readFileSync('mapping.schema.json', 'utf8')))
  const mappings: [string, string][] = [
    ...['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml'].map((f): [string, string] => [f, readFileSync(f, 'utf8')]),
    ['normalised', NORMALISED_MAPPING],
    ['compose', COMPOSE_MAPPING]
  ]
  for (const [name, text] of mappings) t.ok(validate(parseYaml(text)), `${name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
  const wrong = parseYaml(COMPOSE_MAPPING.replace(NAME, NAME.replace('then: { coalesce: [social_nm, full_name] }', 'then: { coalesce: [social_nm, { colum: full_name }] }')))
  t.notOk(validate(wrong), 'an unknown key deep inside a nested value')
})

t.test('the composed mapping builds; the fixture is not needed for that', async (t) => {
  t.same(issuesOf(COMPOSE_MAPPING), [])
})

t.test('a nested value with two sources is reported at its own line', async (t) => {
  const yaml = COMPOSE_MAPPING.replace('then: { coalesce: [social_nm, full_name] }', "then: { coalesce: [social_nm, { column: full_name, value: 'x' }] }")
  t.not(yaml, COMPOSE_MAPPING)
  const issues = issuesOf(yaml)
  t.equal(issues.length, 1, JSON.stringify(issues))
  t.equal(issues[0].path, '/resources/client/fields/name/coalesce/1/rules/0/then/coalesce/1')
  t.equal(issues[0].line, lineOf(yaml, "{ column: full_name, value: 'x' }"), 'the line of the nested value')
  t.match(issues[0].message, /has column and value: give exactly one source/)
})

t.test('a rule with two outcomes, `then` among them, is refused at the rule', async (t) => {
  const yaml = COMPOSE_MAPPING.replace('              - column: full_name\n', '              - { column: full_name, then: social_nm }\n')
  t.not(yaml, COMPOSE_MAPPING)
  const [issue] = issuesOf(yaml)
  t.equal(issue?.path, '/resources/client/fields/name/coalesce/1/rules/1')
  t.match(issue?.message, /more than one outcome: give one of value, column, template, coalesce, then/)
})

t.test(`values nest at most ${MAX_VALUE_DEPTH} deep`, async (t) => {
  const nest = (depth: number): string => depth === 1 ? 'full_name' : `{ coalesce: [${nest(depth - 1)}] }`
  const at = (depth: number) => COMPOSE_MAPPING.replace(NAME, `      name: ${nest(depth)}\n`)
  t.same(issuesOf(at(MAX_VALUE_DEPTH)), [], `${MAX_VALUE_DEPTH} levels are fine`)
  const issues = issuesOf(at(MAX_VALUE_DEPTH + 1))
  t.equal(issues.length, 1)
  t.equal(issues[0].path, `/resources/client/fields/name${'/coalesce/0'.repeat(MAX_VALUE_DEPTH)}`, 'the first value too deep')
  t.match(issues[0].message, new RegExp(`nest more than ${MAX_VALUE_DEPTH} deep`))
  t.equal(issues[0].line, lineOf(at(MAX_VALUE_DEPTH + 1), '      name: {'))
})

t.test('ponte check finds a missing column inside a nested value, at its own line', async (t) => {
  const yaml = COMPOSE_MAPPING
    .replace('then: { coalesce: [social_nm, full_name] }', 'then: { coalesce: [social_name, full_name] }')
    .replace('to: { coalesce: [ends, booked_until], format: datetime }', 'to: { coalesce: [ends, booked_till], format: datetime }')
    .replace("- { template: '{parent.street}, {parent.town}' }", "- { template: '{parent.street}, {parent.city}' }")
  // The server runs the same catalog pass as `ponte check` before it listens, and refuses.
  const refused = await composeInstallation(t, 'sqlite', yaml).then(() => undefined, (err: unknown) => err)
  t.type(refused, MappingError, 'the installation does not start')
  const problems = (refused as MappingError).issues
  const found = problems.map((f) => [f.path, f.line, f.message])
  t.same(found.map((f) => f[0]).sort(), [
    '/resources/appointment/end/duration/minutes/to/coalesce/1/column',
    '/resources/client/fields/name/coalesce/1/rules/0/then/coalesce/0/column',
    '/resources/location/fields/address/coalesce/1/template'
  ], JSON.stringify(found))
  const line = (path: string) => problems.find((f) => f.path.startsWith(path))?.line
  t.equal(line('/resources/client/fields/name/coalesce/1/rules/0/then'), lineOf(yaml, 'social_name, full_name'))
  t.equal(line('/resources/appointment/end/duration/minutes/to'), lineOf(yaml, 'booked_till'))
  t.equal(line('/resources/location/fields/address/coalesce/1'), lineOf(yaml, '{parent.city}'))
  t.match(problems.map((f) => f.message).join('\n'), /column `social_name` does not exist in table `patient_card`/)
})
