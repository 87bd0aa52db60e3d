// A clinic for issue 27 item 10 (the roles of a name's columns), unlike the samples: a person
// row with given, middle and family columns, an OpenMRS-like name row of five (given, middle,
// family prefix, family, secondary family) and a booking row keeping a copy of the family name. Portable SQL
// for `scratchOn`; a mapping is also compiled for SQL Server by test/language/name-roles-golden.

export const NAME_ROLES_SCHEMA = `
CREATE TABLE pessoa (id INTEGER PRIMARY KEY, nome VARCHAR(40), meio VARCHAR(40), sobrenome VARCHAR(40), fone VARCHAR(20));
CREATE TABLE pessoa_nome (pessoa_id INTEGER PRIMARY KEY, dado VARCHAR(40), meio VARCHAR(40), prefixo VARCHAR(20), familia VARCHAR(40), familia2 VARCHAR(40));
CREATE TABLE medico (id VARCHAR(6) PRIMARY KEY, nome VARCHAR(60) NOT NULL);
CREATE TABLE agenda (id INTEGER PRIMARY KEY, pessoa_id INTEGER, medico VARCHAR(6) NOT NULL, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, situacao CHAR(1), familia VARCHAR(60));
INSERT INTO pessoa VALUES (1, 'Rita', NULL, 'Lee', '11987650001');
INSERT INTO pessoa_nome (pessoa_id, dado, meio, familia, familia2) VALUES (1, 'Rita', NULL, 'Lee', 'Jones');
INSERT INTO medico VALUES ('M1', 'Dra. Ana');
`

/** A mapping whose client name is `name` (the YAML inside `{ }`), on the person row or, with `row`, the name row; a booking copies the family name. */
export function nameRolesMapping (name: string, row = false): string {
  return `version: 1
installation: name-roles
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [name]
states: { values: [WAITING] }
resources:
  appointment:
    table: agenda
    key: id
    start: { date: { column: dia, format: date }, hour: { column: hora, format: text } }
    state: { column: situacao, map: { A: WAITING } }
    refs: { client: pessoa_id, professional: { column: medico, type: text } }
    write:
      key: { generate: max }
      set: { familia: { client: family } }
  client:
    table: pessoa
    key: id
    ${row ? 'joins: { nm: { table: pessoa_nome, on: { id: pessoa_id } } }' : ''}
    fields:
      name: { ${name} }
    phones: [fone]
    write:
      key: { generate: max }
      ${row ? 'after: [{ join: nm }]' : ''}
  professional:
    table: medico
    key: { column: id, type: text }
    fields: { name: nome }
`
}

/** OpenMRS's four name columns, the family in the third. */
export const OPENMRS_NAME = "template: '{nm.dado} {nm.meio} {nm.familia} {nm.familia2}', split: { rule: particles, family: nm.familia }"

/** OpenMRS's five name columns, the family's leading particles in `prefixo`. */
export const OPENMRS_PREFIX_NAME = "template: '{nm.dado} {nm.meio} {nm.prefixo} {nm.familia} {nm.familia2}', split: { rule: particles, family: nm.familia, familyPrefix: nm.prefixo }"
