import t from 'tap'
import { cleanText, foldName, normaliseEmail } from '../../../src/normalise/text.js'

t.test('cleanText', async (t) => {
  t.equal(cleanText('  Maria  '), 'Maria')
  t.equal(cleanText('Maria Silva          '), 'Maria Silva', 'CHAR(n) padding')
  t.equal(cleanText('Maria\u0000\u0000'), 'Maria', 'NUL padding')
  t.equal(cleanText('Maria  da  Silva'), 'Maria  da  Silva', 'inner spaces are data')
  t.equal(cleanText(42), '42')
  t.equal(cleanText(42n), '42')
  t.equal(cleanText(''), undefined)
  t.equal(cleanText('   '), undefined)
  t.equal(cleanText('\t\n'), undefined)
  t.equal(cleanText(null), undefined)
  t.equal(cleanText(undefined), undefined)
  t.equal(cleanText(Number.NaN), undefined)
  t.equal(cleanText({}), undefined)
})

t.test('foldName matches regardless of case, accents and spacing', async (t) => {
  t.equal(foldName('  JOSÉ  da   Conceição '), 'jose da conceicao')
  t.equal(foldName('João\u00a0Gonçalves'), 'joao goncalves', 'non-breaking space')
  t.equal(foldName('Ana\tMaria\nSouza'), 'ana maria souza')
  // Precomposed and decomposed spellings of the same name.
  t.equal(foldName('Jos\u00e9'), foldName('Jose\u0301'))
  t.equal(foldName('ÂNGELA MÜLLER'), 'angela muller')
  t.not(foldName('Maria'), foldName('Mario'))
})

t.test('normaliseEmail', async (t) => {
  t.equal(normaliseEmail('  Maria.Silva@Example.COM '), 'maria.silva@example.com')
  t.equal(normaliseEmail('a@b'), 'a@b')
  t.equal(normaliseEmail(''), undefined)
  t.equal(normaliseEmail('   '), undefined)
  t.equal(normaliseEmail('nao tem'), undefined)
  t.equal(normaliseEmail('maria.example.com'), undefined)
  t.equal(normaliseEmail(null), undefined)
  t.equal(normaliseEmail(12), undefined)
})
