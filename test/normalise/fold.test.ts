// Text for a column without Unicode: kept where code page 1252 and Latin-1 agree, folded to
// the nearest form elsewhere, dropped when there is none — never a `?`.
import t from 'tap'
import { foldToCodePage } from '../../src/normalise/fold.js'

const CASES: [string, string, string][] = [
  ['Nguyễn Łukasz 😀', 'Nguyen Lukasz', 'Vietnamese and Polish letters folded, the emoji and the space before it dropped'],
  ['João Conceição', 'João Conceição', 'Portuguese accents are in the code page: kept'],
  ['Zoë Müller-Weiß Ærø ñ º ª', 'Zoë Müller-Weiß Ærø ñ º ª', 'Latin-1 letters and ordinals kept (ß and Æ are in code page 1252)'],
  ['Łódź', 'Lódz', 'Ł has no decomposition: its own nearest form; ó is kept, ź folded'],
  ['Đặng Thị Hương', 'Dang Thi Huong', 'stacked Vietnamese marks all go'],
  ['Œuvre œil', 'OEuvre oeil', 'Œ and œ become two letters'],
  ['D\u2019Ávila \u201Cnick\u201D \u2018x\u2019', 'D\'Ávila "nick" \'x\'', 'curly quotes straightened'],
  ['a \u2013 b \u2014 c\u2026', 'a - b - c...', 'dashes and the ellipsis'],
  ['Ana 😀 Silva', 'Ana Silva', 'a dropped emoji leaves no doubled space'],
  ['😀 Ana', 'Ana', 'nor a leading one'],
  ['Ana😀Silva', 'AnaSilva', 'nor an invented one'],
  ['👩‍⚕️ Dra. Ana', 'Dra. Ana', 'an emoji sequence (ZWJ, variation selector) goes whole'],
  ['Ana\u00A0Lima\u2003X', 'Ana Lima X', 'non-breaking and wide spaces become spaces'],
  ['co\u00ADope\u200Bra', 'coopera', 'soft hyphen and zero-width space dropped'],
  ['ﬁnal Ｆｕｌｌ', 'final Full', 'compatibility forms (ligature, full width)'],
  ['Иван Петров', '', 'a script with no Latin form is dropped entirely'],
  ['Ивaн Lima', 'a Lima', 'only the Latin letters of a mixed name survive'],
  ['10 € ™', '10 EUR TM', 'symbols with a Latin spelling'],
  ['plain ASCII ~!@#', 'plain ASCII ~!@#', 'ASCII unchanged'],
  ['', '', 'empty stays empty']
]

t.test('folding table', async (t) => {
  for (const [input, expected, why] of CASES) t.equal(foldToCodePage(input), expected, `${JSON.stringify(input)}: ${why}`)
})

t.test('what it returns is always one byte per character in code page 1252 and never `?` for a lost one', async (t) => {
  for (const [input] of CASES) {
    const out = foldToCodePage(input)
    t.ok([...out].every((ch) => (ch.codePointAt(0) as number) <= 0xFF), `${JSON.stringify(input)} → only U+0000–U+00FF`)
    t.equal(out.split('?').length, input.split('?').length, `${JSON.stringify(input)}: no \`?\` added`)
  }
})

t.test('folding twice changes nothing more', async (t) => {
  for (const [input] of CASES) t.equal(foldToCodePage(foldToCodePage(input)), foldToCodePage(input), JSON.stringify(input))
})
