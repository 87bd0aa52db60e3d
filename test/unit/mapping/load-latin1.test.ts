// Strings read from a mapping are stored one byte a character whenever Latin-1 holds them
// (mapping/load.ts). V8 gives a string cut from a text that text's representation, and a
// JSON text built from a two-byte string is two-byte as a whole: with one '→' in a comment
// of the mapping, every response naming a mapped label was twice its size in memory and
// took Node's slow paths to count and write its bytes. v8.serialize tells the
// representation apart: tag 0x22 for one byte a character, 0x63 for two.
import t from 'tap'
import { readFileSync } from 'node:fs'
import v8 from 'node:v8'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { serialize } from '../../../src/services/json.js'
import { sampleApp } from '../../helpers/app.js'

const oneByte = (s: string): boolean => v8.serialize(s)[2] === 0x22
const SAMPLE = 'mappings/clinica-sorriso.yaml'
const beyondLatin1 = (s: string): boolean => [...s].some((c) => c.codePointAt(0)! > 0xff)

/** Every string in `x`, keys included, that Latin-1 holds yet is stored two bytes a character, with its path. */
function twoByte (x: unknown, path = ''): string[] {
  if (typeof x === 'string') return oneByte(x) || beyondLatin1(x) ? [] : [`${path}: ${x}`]
  if (x === null || typeof x !== 'object') return []
  return Object.entries(x).flatMap(([k, v]) => [...twoByte(k, `${path}/ (key)`), ...twoByte(v, `${path}/${k}`)])
}

t.test('a mapping with characters beyond Latin-1: its other strings are one byte, its own keep every character', async (t) => {
  const text = readFileSync(SAMPLE, 'utf8')
  t.ok(beyondLatin1(text), 'the sample mapping holds a character beyond Latin-1 (else this test proves nothing)')
  // A label that needs two bytes a character, written as a clinic would.
  const withArrow = text.replace('E: Encaixe }', 'E: Encaixe → sem hora }')
  t.not(withArrow, text, 'the label was found to change')
  const { doc } = parseMapping(withArrow, SAMPLE)
  t.same(twoByte(doc), [], 'every key and value Latin-1 holds is one byte a character')
  const model = buildModel(parseMapping(withArrow, SAMPLE))
  t.match(JSON.stringify(model), /"Encaixe → sem hora"/, 'the label beyond Latin-1 is kept as written')
  t.match(JSON.stringify(model), /"Urgência"/, 'an accented label is kept as written')
})

t.test('YAML\'s own types and aliases come out of the mapping as before', async (t) => {
  // An alias to its own ancestor is a cycle: still a located schema error, not a stack overflow.
  t.throws(() => parseMapping('version: 1\ninstallation: x\nresources: &r { a: *r }\n', 'c.yaml'), { name: 'MappingError' })
  // An anchored scalar, in a file that holds a character beyond Latin-1.
  const { doc } = parseMapping(readFileSync(SAMPLE, 'utf8').replace('installation: clinica-sorriso', 'installation: &name clinica-sorriso\n# → beyond Latin-1'), SAMPLE)
  t.equal(doc.installation, 'clinica-sorriso')
  t.ok(oneByte(doc.installation), 'an anchored scalar is one byte too')
})

t.test('the sample installation answers in one-byte JSON: by id, a list, a catalogue', async (t) => {
  const a = await sampleApp(SAMPLE)
  t.teardown(a.close)
  const at = performance.now()
  const list = await a.ponte.appointments.list({ start: '2026-11-20', end: '2026-11-30' }, at)
  t.ok(list.length > 10, `a list of ${list.length} appointments`)
  t.ok(list.some((x) => x.classification !== undefined && /[^\x00-\x7f]/.test(x.classification)), 'a mapped label with an accent is among them') // eslint-disable-line no-control-regex
  t.same(twoByte(list), [], 'no field of the list is two-byte')
  t.notOk(beyondLatin1(JSON.stringify(list)), 'the fixture\'s rows hold nothing beyond Latin-1 (their JSON could not be one-byte)')
  t.ok(oneByte(serialize(list)), 'the list\'s JSON is one byte a character')
  const one = await a.ponte.appointments.get(list[0]!.id, at)
  t.ok(oneByte(serialize(one)), 'an appointment by id')
  const professionals = await a.ponte.lookups.list('professional', {}, at)
  t.ok(professionals.length > 0 && oneByte(serialize(professionals)), 'the professionals')
})
