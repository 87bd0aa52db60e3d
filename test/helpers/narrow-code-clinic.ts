// A small schema generated for the tests of column fitting: the professional's id is kept in a
// one-character text column (`appt.dcode VARCHAR(1)`), so 7 fits and 10 does not. Shared by the
// catalogue-unreadable and reload-columns tests.

/** The schema with these professionals (id, name). */
export function narrowCodeSchema (doctors: Array<[number, string]>): string {
  return `
CREATE TABLE pt (pid INTEGER PRIMARY KEY, pname VARCHAR(20) NOT NULL, tel VARCHAR(20));
CREATE TABLE doc (dcode INTEGER PRIMARY KEY, dname VARCHAR(40));
CREATE TABLE appt (aid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, dcode VARCHAR(1), adate DATE NOT NULL, ahour VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
INSERT INTO pt (pid, pname, tel) VALUES (1, 'Ann Lima', '11987654321');
${doctors.map(([id, name]) => `INSERT INTO doc (dcode, dname) VALUES (${id}, '${name}');`).join('\n')}
`
}

export function narrowCodeMapping (installation: string): string {
  return `version: 1
installation: ${installation}
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED]
resources:
  appointment:
    table: appt
    key: aid
    start:
      date: { column: adate, format: date }
      hour: { column: ahour, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED } }
    refs: { client: pid, professional: dcode }
    write:
      key: { generate: max }
      states:
        WAITING: { st: { value: 0 } }
        CONFIRMED: { st: { value: 1 } }
  client:
    table: pt
    key: pid
    fields: { name: pname }
    phones: [tel]
  professional:
    table: doc
    key: dcode
    fields: { name: dname }
`
}
