// A Chicago clinic's charts (issue 27): phones kept as rows of a child table keyed by (chart,
// seq), their kind a code C/H/W following the number, e-mail and birthday rows in the same
// table. Shared by the contract test on every database and the T-SQL golden.
export const PHONE_ROWS_SCHEMA = `
CREATE TABLE chart (chart_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL);
CREATE TABLE doctor (doc_id INTEGER PRIMARY KEY, doc_name VARCHAR(40));
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, chart_no INTEGER NOT NULL, doc_id INTEGER, vdate DATE NOT NULL, vtime VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
CREATE TABLE chart_phone (chart_no INTEGER NOT NULL, seq INTEGER NOT NULL, kind CHAR(1) NOT NULL, num VARCHAR(80) NOT NULL, ext VARCHAR(6), PRIMARY KEY (chart_no, seq));
INSERT INTO chart (chart_no, full_name) VALUES (1, 'Ann Kowalski');
INSERT INTO chart_phone (chart_no, seq, kind, num) VALUES (1, 1, 'H', '312-555-0101');
`

export function phoneRowsMapping (lines = '{ mobile: C, fixedLine: H, otherwise: W }', where = '{ column: kind, in: [C, H, W] }'): string {
  return `version: 1
installation: chicago-charts
timezone: America/Chicago
phone: { defaultCountry: US, defaultAreaCode: '312' }
resources:
  appointment:
    table: visit
    key: visit_id
    start:
      date: { column: vdate, format: date }
      hour: { column: vtime, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED } }
    refs: { client: chart_no, professional: doc_id }
    write: { key: { generate: max } }
  professional:
    table: doctor
    key: doc_id
    fields: { name: doc_name }
  client:
    table: chart
    key: chart_no
    joins:
      mail: { table: chart_phone, on: { chart_no: chart_no }, where: { column: kind, eq: E }, first: { key: seq, by: [seq] } }
      born: { table: chart_phone, on: { chart_no: chart_no }, where: { column: kind, eq: B }, first: { key: seq, by: [seq] } }
    fields:
      name: full_name
      email: mail.num
      birthday: { column: born.num, format: text }
    phones:
      - collect: { table: chart_phone, on: { chart_no: chart_no }, where: ${where}, column: num, by: [seq] }
    write:
      key: { generate: max }
      phoneFormat: dashed
      after:
        - phones: 0
          key: { generate: max, column: seq, per: chart_no }
          set: { kind: { phoneLine: ${lines} } }
        - join: mail
          key: { generate: max, column: seq, per: chart_no }
          set: { kind: { value: E } }
        - join: born
          key: { generate: max, column: seq, per: chart_no }
          set: { kind: { value: B } }
`
}
