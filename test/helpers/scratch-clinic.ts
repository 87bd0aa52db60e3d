// A small clinic schema unlike the samples (Portuguese names, text hours, codes as ints)
// and a mapping of it in which every line is unique, so a test can plant one mistake by text.
export const CLINIC_SQL = `
CREATE TABLE TB_CLIENTE (COD INTEGER PRIMARY KEY, NOME_COMPLETO VARCHAR(80) NOT NULL, FONE VARCHAR(20), EMAIL VARCHAR(80), ATIVO CHAR(1));
CREATE TABLE TB_MEDICO (COD INTEGER PRIMARY KEY, NOME VARCHAR(60), SITUACAO INTEGER);
CREATE TABLE TB_LOCAL (COD INTEGER PRIMARY KEY, DESCR VARCHAR(60), ENDERECO VARCHAR(120));
CREATE TABLE TB_MEDICO_LOCAL (MEDICO INTEGER, LOCAL INTEGER);
CREATE TABLE TB_CONSULTA (COD INTEGER PRIMARY KEY, DATA DATE NOT NULL, HORA VARCHAR(5) NOT NULL, CLIENTE INTEGER, MEDICO INTEGER, LOCAL INTEGER, SIT INTEGER NOT NULL, ORIGEM VARCHAR(10) NOT NULL);
CREATE TABLE TB_FONE (CLIENTE INTEGER, NUMERO VARCHAR(20));
INSERT INTO TB_FONE VALUES (1, '11 3333-0001'), (1, '11 3333-0002'), (2, '11 3333-0003');
CREATE TABLE TB_GRADE (MEDICO INTEGER, LOCAL INTEGER, DIA INTEGER, INICIO VARCHAR(5), FIM VARCHAR(5));
INSERT INTO TB_CLIENTE VALUES (1, 'Ana Souza', '11 98888-1111', 'ana@example.com', 'S'), (2, 'Bruno Lima', '11 97777-2222', NULL, 'S');
INSERT INTO TB_MEDICO VALUES (10, 'Dra. Carla', 1), (11, 'Dr. Davi', 1);
INSERT INTO TB_LOCAL VALUES (100, 'Centro', 'Rua A, 1');
INSERT INTO TB_MEDICO_LOCAL VALUES (10, 100), (11, 100);
INSERT INTO TB_GRADE VALUES (10, 100, 1, '08:00', '12:00');
INSERT INTO TB_CONSULTA VALUES (500, '2026-11-23', '09:00', 1, 10, 100, 1, 'web'), (501, '2026-11-24', '10:00', 2, 11, 100, 2, 'web');
INSERT INTO TB_CONSULTA VALUES (502, '2026-11-25', '10:00', 2, 11, 100, 7, 'tel'), (503, '2026-11-26', '10:00', 1, 10, 100, 7, 'tel');
`

// Every line is unique, so a planted mistake is found by its text and its line known.
export const CLINIC_MAPPING = `version: 1
installation: scratch-clinic
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: TB_CONSULTA
    key: COD
    start:
      date: { column: DATA, format: date }
      hour: { column: HORA, format: text }
    state:
      column: SIT
      type: int
      map: { '1': WAITING, '2': CONFIRMED, '3': CANCELED, '7': CANCELED }
    refs:
      client: CLIENTE
      professional: MEDICO
      location: LOCAL
    write:
      set:
        ORIGEM: { value: ponte }
      states:
        WAITING: { SIT: { value: 1 } }
        CONFIRMED: { SIT: { value: 2 } }
        CANCELED: { SIT: { value: 3 } }
  client:
    table: TB_CLIENTE
    key: COD
    where: { column: ATIVO, eq: S }
    fields:
      name: NOME_COMPLETO
      email: EMAIL
    phones: [FONE]
    write:
      set:
        ATIVO: { value: S }   # the filter above: a registration must be found by it
  professional:
    table: TB_MEDICO
    key: COD
    fields:
      name: NOME
    enabled: { column: SITUACAO, trueValues: [1] }
  location:
    table: TB_LOCAL
    key: COD
    fields:
      name: DESCR
      address: ENDERECO
relations:
  - between: [professional, location]
    table: TB_MEDICO_LOCAL
    columns: { professional: MEDICO, location: LOCAL }
availability:
  weekly:
    table: TB_GRADE
    professional: MEDICO
    location: LOCAL
    weekday: DIA
    start: { column: INICIO, format: text }
    end: { column: FIM, format: text }
`
