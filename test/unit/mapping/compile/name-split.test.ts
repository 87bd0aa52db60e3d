// The split rules on the names of issue 27 (a stranger's OpenMRS and OpenEMR): where `particles`
// begins the family name, the family's leading particles in `familyPrefix`'s column, and that
// every cut keeps the words and their order (joined, they give back the name sent).
import t from 'tap'
import { splitName, splitInto, nameLayout, nameAsRead } from '../../../../src/mapping/compile/name-split.js'

// Under `particles`, given then family.
const PARTICLES: Array<[string, string, string]> = [
  ['Maria das Graças de Souza e Silva', 'Maria das Graças', 'de Souza e Silva'],
  ['Maria das Graças de Souza', 'Maria das Graças', 'de Souza'],
  ['Maria das Graças Silva', 'Maria das Graças', 'Silva'],
  ['MARIA DAS GRACAS DE SOUZA LIMA', 'MARIA DAS GRACAS', 'DE SOUZA LIMA'],
  ['João da Silva', 'João', 'da Silva'],
  ['José Carlos de Oliveira Santos', 'José Carlos', 'de Oliveira Santos'],
  ['Ana Paula Souza', 'Ana Paula', 'Souza'],
  ['Marie Claire de la Fontaine', 'Marie Claire', 'de la Fontaine'],
  ['Ana Maria de Souza e Silva', 'Ana Maria', 'de Souza e Silva'],
  ['Ana Souza e Silva', 'Ana', 'Souza e Silva'],
  ['Sebastião de Alcântara e Silva', 'Sebastião', 'de Alcântara e Silva'],
  ['José Ortega y Gasset', 'José', 'Ortega y Gasset'],
  ['Maria de Fátima dos Santos', 'Maria de Fátima', 'dos Santos'],
  ['João da Conceição', 'João', 'da Conceição'],
  ['Ludwig Mies van der Rohe', 'Ludwig Mies', 'van der Rohe'],
  ['Minh Van Nguyen', 'Minh', 'Van Nguyen'],
  ['João da Silva Neto', 'João', 'da Silva Neto'],
  ['Carlos E. Nogueira Filho', 'Carlos E.', 'Nogueira Filho'],
  ['Ana Paula Neto', 'Ana Paula', 'Neto'],
  ['Pelé', 'Pelé', '']
]

t.test('particles: where the family name begins', async (t) => {
  for (const [name, given, family] of PARTICLES) {
    const cut = splitName(name, 2, 'particles')
    t.same(cut, [given, family], name)
    t.equal(cut.filter((w) => w !== '').join(' '), name, `${name}: the words kept in their order`)
  }
})

t.test('firstSpace and lastSpace are unchanged', async (t) => {
  t.same(splitName('Maria das Graças de Souza e Silva', 2, 'firstSpace'), ['Maria', 'das Graças de Souza e Silva'])
  t.same(splitName('Maria das Graças de Souza e Silva', 2, 'lastSpace'), ['Maria das Graças de Souza e', 'Silva'])
})

t.test('familyPrefix: the family\'s leading particles to the column before the family\'s', async (t) => {
  const columns = ['given_name', 'middle_name', 'family_name_prefix', 'family_name', 'family_name2']
  const split = { rule: 'particles' as const, family: 'family_name', familyPrefix: 'family_name_prefix' }
  const layout = nameLayout(columns, split)
  t.same(layout, { given: ['given_name', 'middle_name'], family: 'family_name', prefix: 'family_name_prefix', secondary: ['family_name2'] })
  const cases: Array<[string, string[]]> = [
    ['Maria das Graças de Souza', ['Maria', 'das Graças', 'de', 'Souza', '']],
    ['Maria das Graças de Souza e Silva', ['Maria', 'das Graças', 'de', 'Souza e Silva', '']],
    ['Marie Claire de la Fontaine', ['Marie', 'Claire', 'de la', 'Fontaine', '']],
    ['José Carlos de Oliveira Santos', ['José', 'Carlos', 'de', 'Oliveira Santos', '']],
    ['Ana Paula Souza', ['Ana', 'Paula', '', 'Souza', '']],
    ['Ana Souza e Silva', ['Ana', '', '', 'Souza e Silva', '']],
    ['João da Silva', ['João', '', 'da', 'Silva', '']],
    ['Pelé', ['Pelé', '', '', '', '']]
  ]
  for (const [name, stored] of cases) {
    const cut = splitInto(name, layout, split)
    t.same(columns.map((c) => cut[c]), stored, name)
    t.equal(nameAsRead(name, columns, split), name, `${name}: read back whole`)
  }
  // Without `family`, the family is the template's last column and the prefix the one before it.
  const three = ['nome', 'prefixo', 'sobrenome']
  const cut = splitInto('Pedro van der Berg', nameLayout(three, { familyPrefix: 'prefixo' }), { familyPrefix: 'prefixo' })
  t.same(three.map((c) => cut[c]), ['Pedro', 'van der', 'Berg'], 'under firstSpace too')
})
