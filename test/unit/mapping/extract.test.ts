// `extract` (src/mapping/extract.ts): which patterns a mapping may give, and what the reader
// takes from a stored text: an OpenEMR `pc_recurrspec` as PHP's serialize() writes it.
import t from 'tap'
import { EXTRACT_MAX_CHARS, extractProblem, extractor, overlong } from '../../../src/mapping/extract.js'

const SPEC = 'a:6:{s:17:"event_repeat_freq";s:1:"1";s:22:"event_repeat_freq_type";s:1:"1";s:19:"event_repeat_on_num";s:1:"1";s:19:"event_repeat_on_day";s:1:"0";s:20:"event_repeat_on_freq";s:1:"0";s:6:"exdate";s:17:"20261124,20261201";}'

t.test('a pattern with one capture group is taken; its first match\'s group is the value', async (t) => {
  t.equal(extractProblem('"event_repeat_freq";s:\\d+:"(\\d+)"'), undefined)
  t.equal(extractor('"event_repeat_freq";s:\\d+:"(\\d+)"')(SPEC), '1')
  t.equal(extractor('"event_repeat_freq_type";s:\\d+:"(\\d)"')(SPEC), '1')
  t.equal(extractor('"exdate";s:\\d+:"([^"]*)"')(SPEC), '20261124,20261201')
  t.equal(extractor('"event_repeat_freq";s:\\d+:"([\\d,]+)"')(SPEC.replace('s:1:"1";s:22', 's:5:"2,4,6";s:22')), '2,4,6')
  t.equal(extractor('"exdate";s:\\d+:"([^"]*)"')(SPEC.replace('s:17:"20261124,20261201"', 's:0:""')), '', 'an empty group is the empty text')
  t.equal(extractor('"nothing";s:\\d+:"(\\d+)"')(SPEC), undefined, 'no match: none')
  t.equal(extractor('(\\d+)')(null), undefined, 'NULL: none')
  t.equal(extractor('^(\\d{4})')(20261124), '2026', 'a number is read as its text')
  t.equal(extractProblem('(?:a|b)(\\d+)'), undefined, 'non-capturing groups do not count')
})

t.test('patterns refused, each saying why', async (t) => {
  t.match(extractProblem('"freq";s:(\\d+'), /is not a regular expression/)
  t.match(extractProblem('"freq";s:\\d+'), /has 0 capture groups: give exactly one/)
  t.match(extractProblem('(\\d+):(\\d+)'), /has 2 capture groups/)
  t.match(extractProblem('((a+)+)'), /has 2 capture groups/)
  t.match(extractProblem('(?:a+)+(b)'), /repeats a group that itself repeats/)
  t.match(extractProblem('((?:\\d*,)*)'), /repeats a group that itself repeats/)
  t.match(extractProblem('(x(?:a|b+){2,})'), /repeats a group that itself repeats/)
  t.equal(extractProblem('(?:a+)?(b)'), undefined, 'an optional group is not repeated')
  t.equal(extractProblem('([+*]+)'), undefined, 'quantifier characters in a class are characters')
  t.equal(extractProblem('(\\(+)'), undefined, 'an escaped parenthesis opens no group')
})

t.test(`only the first ${EXTRACT_MAX_CHARS} characters are searched`, async (t) => {
  const read = extractor('"exdate";s:\\d+:"([^"]*)"')
  const long = 'x'.repeat(EXTRACT_MAX_CHARS) + SPEC
  t.equal(read(long), undefined, 'a key past the bound is not found')
  t.ok(overlong(long), 'and the text says it was cut')
  t.notOk(overlong(SPEC))
  const started = Date.now()
  t.equal(extractor('(a*)*b'.replace('(a*)*', '(a*)'))('a'.repeat(EXTRACT_MAX_CHARS * 4)), undefined)
  t.ok(Date.now() - started < 2000, 'a long text costs at most the bounded search')
})

// Found by an outside review: repeated alternatives and several wide repetitions passed the
// guard and took 12 s and 196 s on a row of spaces or commas.
t.test('repeated alternatives and more than one wide repetition are refused at load', async (t) => {
  t.match(extractProblem('(?:\\s|.)*"x"(\\d)'), /holds alternatives/)
  t.match(extractProblem('"a":(.*),.*,.*,.*;'), /more than one wide match/)
  t.match(extractProblem('([^,]*),\\s+(?:x)'), /more than one wide match/)
  for (const ok of ['"event_repeat_freq";s:\\d+:"(\\d+)"', '"exdate";s:\\d+:"([^"]*)"', '"event_repeat_freq";s:\\d+:"([\\d,]+)"', '(?:ab|cd)?(\\d+)', 'x(\\d)\\.y\\..z']) t.equal(extractProblem(ok), undefined, ok)
})
