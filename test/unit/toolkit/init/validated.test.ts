// A draft that does not validate is still written by `ponte init`, its problems as TODO lines
// under the schema link (issue 27: OSCAR's two `phones` keys crashed init and wrote nothing).
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { validated } from '../../../../src/toolkit/init/validated.js'

const GOOD = `# yaml-language-server: $schema=x.json
version: 1
installation: x
resources:
  appointment:
    table: a
    key: id
    start: { datetime: { column: s, format: datetime } }
    state: { value: WAITING }
  client:
    table: c
    key: id
    fields: { name: n }
    phones: [p]
`

t.test('a valid draft is written as it is', async (t) => {
  t.same(validated(GOOD, 'd.yaml'), { yaml: GOOD, problems: 0 })
})

t.test('a key given twice: the draft kept, the problem a TODO line at its top', async (t) => {
  const twice = `${GOOD}    phones: [q]\n`
  const { yaml, problems } = validated(twice, 'd.yaml')
  t.equal(problems, 1)
  const lines = yaml.split('\n')
  t.match(lines[0], /^# yaml-language-server:/, 'the schema link stays first')
  t.match(lines[1], /^# TODO: the draft does not validate at line 16 .*"phones" is given twice/)
  t.match(lines[15], /phones: \[q\]/, 'the line said, counted with the note above it')
  t.equal(lines.slice(2).join('\n'), twice.split('\n').slice(1).join('\n'), 'the rest as drafted')
  t.throws(() => parseMapping(yaml, 'd.yaml'), 'still for a human to mend')
})
