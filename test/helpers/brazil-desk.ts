// A physiotherapy desk program's schema, unlike the samples (issue 27, the fifth stranger's
// Delphi system): treatments priced as Brazilian text (`R$ 1.150,50`, `250,00`, `1.150`), and
// a visit log numbered, as the visits are, from a counter table the desk program bumps
// (`sequencia`: `historico_sessao` last at 50, its rows 1..50 the desk's). SQL for `scratchOn`;
// the mapping is also compiled for SQL Server by test/language/history-row-key-golden.test.ts.

// 2031-03-04 is a Tuesday (ISO weekday 2).
export const DAY = '2031-03-04'

export const DESK_SCHEMA = `
CREATE TABLE sequencia (tabela VARCHAR(30) PRIMARY KEY, ultimo INTEGER NOT NULL);
CREATE TABLE fisioterapeuta (cod INTEGER PRIMARY KEY, nome VARCHAR(40));
CREATE TABLE paciente (cod INTEGER PRIMARY KEY, nome VARCHAR(60));
CREATE TABLE tratamento (cod INTEGER PRIMARY KEY, descricao VARCHAR(40) NOT NULL, preco VARCHAR(20));
CREATE TABLE grade (id INTEGER PRIMARY KEY, fisio INTEGER NOT NULL, dia INTEGER NOT NULL, ini VARCHAR(5), fim VARCHAR(5));
CREATE TABLE sessao (num INTEGER PRIMARY KEY, fisio INTEGER, paciente INTEGER NOT NULL, tratamento INTEGER, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, sit CHAR(1));
CREATE TABLE historico_sessao (seq INTEGER PRIMARY KEY, sessao INTEGER NOT NULL, evento VARCHAR(12), anterior VARCHAR(5));
INSERT INTO sequencia (tabela, ultimo) VALUES ('SESSAO', 700);
INSERT INTO sequencia (tabela, ultimo) VALUES ('historico_sessao', 50);
INSERT INTO fisioterapeuta (cod, nome) VALUES (1, 'Dra. Lúcia Prado');
INSERT INTO paciente (cod, nome) VALUES (1, 'Ana Souza');
INSERT INTO tratamento (cod, descricao, preco) VALUES (1, 'Avaliação', 'R$ 1.150,50');
INSERT INTO tratamento (cod, descricao, preco) VALUES (2, 'Sessão', '250,00');
INSERT INTO tratamento (cod, descricao, preco) VALUES (3, 'Pacote', '1.150');
INSERT INTO tratamento (cod, descricao, preco) VALUES (4, 'Retorno', '90');
INSERT INTO tratamento (cod, descricao, preco) VALUES (5, 'Domiciliar', 'a combinar');
INSERT INTO tratamento (cod, descricao, preco) VALUES (6, 'Grupo', NULL);
INSERT INTO grade (id, fisio, dia, ini, fim) VALUES (1, 1, 2, '08:00', '12:00');
INSERT INTO sessao (num, fisio, paciente, tratamento, dia, hora, sit) VALUES (700, 1, 1, 2, '2031-03-03', '08:00', 'A');
INSERT INTO historico_sessao (seq, sessao, evento) VALUES (50, 700, 'MARCOU');
`

/** `price` and `rowKey` as a test wants them (`price: preco` and no `rowKey` as the stranger had them). */
export function deskMapping ({ price = '{ column: preco, decimal: \',\' }', rowKey = '{ column: seq, generate: keyTable, table: sequencia, nameColumn: tabela, name: historico_sessao, valueColumn: ultimo }' }: { price?: string, rowKey?: string | null } = {}): string {
  return `version: 1
installation: brazil-desk
timezone: America/Sao_Paulo
states:
  values: [WAITING, CONFIRMED, CANCELED]
  onReschedule: keep
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED] }
resources:
  appointment:
    table: sessao
    key: num
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state: { column: sit, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: paciente, professional: fisio, service: tratamento }
    write:
      key: { generate: keyTable, table: sequencia, nameColumn: tabela, name: SESSAO, valueColumn: ultimo }
      history:
        table: historico_sessao
        key: sessao
${rowKey === null ? '' : `        rowKey: ${rowKey}\n`}        open:
          evento: { state: { WAITING: MARCOU, CONFIRMED: CONFIRMOU, CANCELED: DESMARCOU } }
        on: [reschedule]
        left:
          evento: { value: REMARCOU }
          anterior: { before: hora }
  professional:
    table: fisioterapeuta
    key: cod
    fields: { name: nome }
  service:
    table: tratamento
    key: cod
    fields:
      name: descricao
      price: ${price}
  client:
    table: paciente
    key: cod
    fields: { name: nome }
    write: { key: { generate: max } }
availability:
  weekly:
    table: grade
    professional: fisio
    weekday: dia
    weekdayBase: iso
    start: { column: ini, format: text }
    end: { column: fim, format: text }
`
}
