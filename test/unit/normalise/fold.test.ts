// Text for a column without Unicode: kept where code page 1252 and Latin-1 agree, accents
// dropped where that is all the code page lacks, refused (undefined) otherwise — never a `?`.
import t from 'tap'
import { foldToCodePage } from '../../../src/normalise/fold.js'
import { foldName } from '../../../src/normalise/text.js'

const FOLDED: [string, string, string][] = [
  ['João Conceição', 'João Conceição', 'Portuguese accents are in the code page: kept'],
  ['Zoë Müller-Weiß Ærø ñ º ª', 'Zoë Müller-Weiß Ærø ñ º ª', 'Latin-1 letters and ordinals kept (ß and Æ are in code page 1252)'],
  ['Nguyễn Thị Ánh', 'Nguyen Thi Ánh', 'Vietnamese accents dropped, Á kept'],
  ['Ștefan Dvořák Őz', 'Stefan Dvorák Oz', 'Romanian, Czech and Hungarian letters lose only their accents'],
  ['Jose\u0301', 'Jose', 'a stray combining mark goes: names compare without it'],
  ['Ana\u00A0Lima\u2003X\u3000Y', 'Ana Lima X Y', 'non-breaking, wide and ideographic spaces become spaces'],
  ['plain ASCII ~!@#', 'plain ASCII ~!@#', 'ASCII unchanged'],
  ['', '', 'empty stays empty']
]

const REFUSED: [string, string][] = [
  ['Zoë Ñandú 李小龍 😀', 'CJK and emoji have no form in the code page'],
  ['Ana 😀', 'an emoji alone'],
  ['Иван Петров', 'another script'],
  ['Łukasz', 'Ł is another letter than L: a search for Łukasz would not find Lukasz'],
  ['Đặng', 'Đ likewise'],
  ['Œuvre', 'Œ is not OE under the interface\'s name comparison'],
  ['D\u2019Ávila', 'a curly apostrophe is not a straight one'],
  ['ﬁnal', 'a ligature is not its letters under NFD'],
  ['co\u00ADopera', 'a soft hyphen'],
  ['10 €', '€ is in 1252 but not in Latin-1: the clinic\'s system may read either']
]

t.test('what folds: only what names compare without (accents, kinds of space)', async (t) => {
  for (const [input, expected, why] of FOLDED) {
    const out = foldToCodePage(input)
    t.equal(out, expected, `${JSON.stringify(input)}: ${why}`)
    t.equal(foldName(out ?? ''), foldName(input), `${JSON.stringify(input)}: the same name under the interface's name comparison`)
    t.ok([...out ?? ''].every((ch) => (ch.codePointAt(0) as number) <= 0xFF), `${JSON.stringify(input)} → only U+0000–U+00FF`)
  }
})

t.test('what is refused: a character with no such form', async (t) => {
  for (const [input, why] of REFUSED) t.equal(foldToCodePage(input), undefined, `${JSON.stringify(input)}: ${why}`)
})

t.test('folding twice changes nothing more', async (t) => {
  for (const [input] of FOLDED) t.equal(foldToCodePage(foldToCodePage(input) as string), foldToCodePage(input), JSON.stringify(input))
})
