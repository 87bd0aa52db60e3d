// The scan for a key given twice in one JSON object (src/plugins/repeated-key.ts), on text
// JSON.parse has accepted: it names the place as a JSON pointer and is not fooled by strings.
import t from 'tap'
import { repeatedKey } from '../../../src/plugins/repeated-key.js'

t.test('a repeated key is named by its JSON pointer', async (t) => {
  t.equal(repeatedKey('{"state":"NOPE","state":"CONFIRMED"}'), '/state')
  t.equal(repeatedKey('{"a":{"b":1,"c":[0,{"d":1,"d":2}]}}'), '/a/c/1/d', 'at any depth, through arrays')
  t.equal(repeatedKey('[{"a":1},{"b":1,"b":2}]'), '/1/b', 'in a top-level array')
  t.equal(repeatedKey('{"f\\u006fo":1,"foo":2}'), '/foo', 'an escaped spelling is the same key')
  t.equal(repeatedKey('{"a/b~c":1,"a/b~c":2}'), '/a~1b~0c', 'pointer tokens escaped (RFC 6901)')
  t.equal(repeatedKey('{"":1,"":2}'), '/', 'the empty key')
})

t.test('what is not a repeat', async (t) => {
  t.equal(repeatedKey('{"a":1,"b":{"a":1}}'), undefined, 'the same key at two levels')
  t.equal(repeatedKey('[{"a":1},{"a":1}]'), undefined, 'the same key in sibling objects')
  t.equal(repeatedKey('{"a":"a","b":["a","a"]}'), undefined, 'values equal to keys')
  t.equal(repeatedKey('{"a":"}{,\\"a\\":","b":"\\\\"}'), undefined, 'brackets, commas, quotes and backslashes inside strings')
  t.equal(repeatedKey('"just a string"'), undefined)
  t.equal(repeatedKey('{}'), undefined)
  const deep = `{"name":${'['.repeat(3000)}{"a":1,"b":2}${']'.repeat(3000)}}`
  t.equal(repeatedKey(deep), undefined, '3,000 levels: no stack overflow')
})

t.test('a 64 KB body with thousands of keys: the repeat at its end is found', async (t) => {
  const members = Array.from({ length: 5000 }, (_, i) => `"k${i}":${i}`)
  const text = `{${members.join(',')},"k17":0}`
  t.ok(text.length > 40_000)
  t.equal(repeatedKey(text), '/k17')
})
