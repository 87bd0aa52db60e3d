// A clinic schema for the phone copies (issue 27 item 8), unlike the samples: a Delphi-era
// agenda row keeping the patient's phone as the desk types it (`fone_paciente`, a mask) and
// as the patient registry spells it (`fone_contato`), and Tryton-like contact rows keeping
// each number as typed (`valor`) and again compact (`valor_compacto`, E.164) and national.
// SQL for `scratchOn` (contact rows keyed by the database); the mapping is also compiled for
// SQL Server by test/language/phone-copies-golden.test.ts.
import type { TestDialect } from './app.js'

const IDENTITY: Record<TestDialect, string> = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }

export const phoneCopiesSchema = (dialect: TestDialect): string => `
CREATE TABLE pessoa (id INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL);
CREATE TABLE contato (id ${IDENTITY[dialect]}, pessoa INTEGER NOT NULL, tipo VARCHAR(10) NOT NULL, valor VARCHAR(30) NOT NULL, valor_compacto VARCHAR(20), valor_nacional VARCHAR(20), seq INTEGER);
CREATE TABLE medico (cod INTEGER PRIMARY KEY, nome VARCHAR(40));
CREATE TABLE agenda (cod INTEGER PRIMARY KEY, cod_medico INTEGER NOT NULL, cod_pessoa INTEGER, data DATE NOT NULL, hora VARCHAR(5) NOT NULL, status CHAR(1),
  fone_paciente VARCHAR(16), fone_contato VARCHAR(20), fone_curto VARCHAR(10));
INSERT INTO medico (cod, nome) VALUES (1, 'Dra. Helena Prado');
INSERT INTO pessoa (id, nome) VALUES (1, 'Ana Souza');
INSERT INTO pessoa (id, nome) VALUES (2, 'Bruno Lima');
INSERT INTO pessoa (id, nome) VALUES (3, 'Carla Dias');
INSERT INTO pessoa (id, nome) VALUES (4, 'John Smith');
INSERT INTO contato (pessoa, tipo, valor, seq) VALUES (1, 'email', 'ana@example.com', 1);
INSERT INTO contato (pessoa, tipo, valor, seq) VALUES (1, 'celular', '(11) 98765-4321', 2);
INSERT INTO contato (pessoa, tipo, valor, seq) VALUES (2, 'fixo', '1133334444', 1);
INSERT INTO contato (pessoa, tipo, valor, seq) VALUES (4, 'celular', '+44 7911 123456', 1);
`

export const PHONE_COPIES_MAPPING = `version: 1
installation: phone-copies
timezone: America/Sao_Paulo
phone: { defaultCountry: BR, defaultAreaCode: '11' }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: agenda
    key: cod
    start:
      date: { column: data, format: date }
      hour: { column: hora, format: text }
    state: { column: status, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: cod_pessoa, professional: cod_medico }
    write:
      key: { generate: max }
      set:
        fone_paciente: { client: phone, format: '(##) #####-####', otherwise: '' }
        fone_contato: { client: phone }
  professional:
    table: medico
    key: cod
    fields: { name: nome }
  client:
    table: pessoa
    key: id
    fields: { name: nome }
    phones:
      - collect: { table: contato, on: { id: pessoa }, where: { column: tipo, in: [celular, fixo] }, column: valor, by: [seq, id] }
    write:
      key: { generate: max }
      phoneFormat: '+55 ## #####-####'
      after:
        - phones: 0
          set:
            tipo: { value: celular }
            seq: { value: 1 }
            valor_compacto: { phone: e164 }
            valor_nacional: { phone: national }
`
