// A clinic whose schema mixes the forms a stranger met in GNU Health and a Delphi-era agenda
// (issue 27's second round): the patient hangs from a party (`patient.party`, not its own id),
// its CPF and e-mail are rows of `identifier` and `contact` keyed by that party with a kind
// column; dates are `dd/mm/yyyy` text everywhere, stamps included (`15/03/2019`,
// `20/11/2026 10:05:00`), dated hours and leave too; professionals' `active` is a BOOLEAN.
// Portable SQL for `scratchOn`.
export const DAY = '2031-03-03' // a Monday
export const DAY_DMY = '03/03/2031'

export const LEGACY_FORMS_SCHEMA = `
CREATE TABLE party (party_id INTEGER PRIMARY KEY, kind VARCHAR(10) NOT NULL);
INSERT INTO party (party_id, kind) VALUES (101, 'person');
INSERT INTO party (party_id, kind) VALUES (102, 'person');
CREATE TABLE patient (pat_id INTEGER PRIMARY KEY, party INTEGER NOT NULL, pat_name VARCHAR(80) NOT NULL, phone VARCHAR(20), since VARCHAR(10) NOT NULL, changed VARCHAR(19));
INSERT INTO patient (pat_id, party, pat_name, phone, since, changed) VALUES (1, 101, 'Ana Souza', '11987650001', '15/03/2019', '20/11/2026 10:05:00');
INSERT INTO patient (pat_id, party, pat_name, phone, since, changed) VALUES (2, 102, 'Bruno Lima', '11987650002', '02/07/2021', '01/12/2026 08:00:00');
CREATE TABLE identifier (party INTEGER NOT NULL, id_type VARCHAR(10) NOT NULL, code VARCHAR(20) NOT NULL);
INSERT INTO identifier (party, id_type, code) VALUES (101, 'br_cpf', '529.982.247-25');
INSERT INTO identifier (party, id_type, code) VALUES (101, 'rg', '12345678');
INSERT INTO identifier (party, id_type, code) VALUES (102, 'rg', '87654321');
CREATE TABLE contact (party INTEGER NOT NULL, c_type VARCHAR(10) NOT NULL, c_value VARCHAR(80) NOT NULL);
INSERT INTO contact (party, c_type, c_value) VALUES (101, 'email', 'ana@example.com');
INSERT INTO contact (party, c_type, c_value) VALUES (102, 'fax', '1133334444');
CREATE TABLE prof (prof_id INTEGER PRIMARY KEY, prof_name VARCHAR(60) NOT NULL, active BOOLEAN NOT NULL);
INSERT INTO prof (prof_id, prof_name, active) VALUES (1, 'Dra Vera Prado', TRUE);
INSERT INTO prof (prof_id, prof_name, active) VALUES (2, 'Dr Paulo Reis', TRUE);
INSERT INTO prof (prof_id, prof_name, active) VALUES (3, 'Dr Aposentado', FALSE);
CREATE TABLE grade (prof_id INTEGER NOT NULL, dow INTEGER NOT NULL, ini VARCHAR(5) NOT NULL, fim VARCHAR(5) NOT NULL);
${[0, 1, 2, 3, 4, 5, 6].map((d) => `INSERT INTO grade (prof_id, dow, ini, fim) VALUES (1, ${d}, '08:00', '12:00');`).join('\n')}
CREATE TABLE escala (prof_id INTEGER NOT NULL, dia VARCHAR(10) NOT NULL, ini VARCHAR(5) NOT NULL, fim VARCHAR(5) NOT NULL);
INSERT INTO escala (prof_id, dia, ini, fim) VALUES (2, '03/03/2031', '14:00', '16:00');
INSERT INTO escala (prof_id, dia, ini, fim) VALUES (2, '04/03/2031', '14:00', '16:00');
INSERT INTO escala (prof_id, dia, ini, fim) VALUES (2, '03/04/2031', '14:00', '16:00');
CREATE TABLE bloqueio (prof_id INTEGER, dia VARCHAR(10) NOT NULL, ini VARCHAR(5), fim VARCHAR(5));
INSERT INTO bloqueio (prof_id, dia, ini, fim) VALUES (1, '03/03/2031', '10:00', '11:00');
INSERT INTO bloqueio (prof_id, dia, ini, fim) VALUES (2, '03/03/2031', '15:00', '16:00');
INSERT INTO bloqueio (prof_id, dia, ini, fim) VALUES (1, '04/03/2030', '08:00', '12:00');
INSERT INTO bloqueio (prof_id, dia, ini, fim) VALUES (2, '04/03/2031', NULL, NULL);
CREATE TABLE agenda (ag_id INTEGER PRIMARY KEY, pat_id INTEGER NOT NULL, prof_id INTEGER NOT NULL, dia VARCHAR(10) NOT NULL, hora VARCHAR(5) NOT NULL, sit CHAR(1) NOT NULL, incl VARCHAR(19) NOT NULL);
INSERT INTO agenda (ag_id, pat_id, prof_id, dia, hora, sit, incl) VALUES (500, 1, 1, '20/11/2026', '09:00', 'A', '20/11/2026 10:05:00');
INSERT INTO agenda (ag_id, pat_id, prof_id, dia, hora, sit, incl) VALUES (501, 2, 1, '21/11/2026', '09:30', 'C', '21/11/2026 08:12:44');
`

/** Lines a test replaces to plant a mistake (each unique in the mapping). */
export const ENABLED_LINE = '    enabled: { column: active, trueValues: [true] }'
export const SINCE_LINE = '        since: { now: date, format: dmy }'

export const LEGACY_FORMS_MAPPING = `version: 1
installation: legacy-forms
timezone: America/Sao_Paulo
phone: { defaultCountry: BR, defaultAreaCode: '11' }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: agenda
    key: ag_id
    start:
      date: { column: dia, format: dmy }
      hour: { column: hora, format: text }
    state: { column: sit, map: { A: WAITING, C: CONFIRMED, D: CANCELED } }
    refs:
      client: pat_id
      professional: prof_id
    write:
      key: { generate: max }
      set:
        incl: { now: datetime, format: dmy }
  client:
    table: patient
    key: pat_id
    joins:
      person: { table: party, on: { party: party_id } }
      cpfrow: { table: identifier, on: { party: party }, where: { column: id_type, eq: br_cpf } }
      mail: { table: contact, on: { party: party }, where: { column: c_type, eq: email } }
    fields:
      name: pat_name
      cpf: cpfrow.code
      email: mail.c_value
    phones: [phone]
    write:
      key: { generate: max }
      cpfFormat: masked
      set:
${SINCE_LINE}
      update:
        changed: { now: datetime, format: dmy }
      before:
        - join: person
          key: { generate: max }
          set: { kind: { value: person } }
      after:
        - join: cpfrow
          set: { id_type: { value: br_cpf } }
        - join: mail
          set: { c_type: { value: email } }
  professional:
    table: prof
    key: prof_id
    fields: { name: prof_name }
${ENABLED_LINE}
availability:
  slotMinutes: 30
  weekly:
    table: grade
    professional: prof_id
    weekday: dow
    start: { column: ini, format: text }
    end: { column: fim, format: text }
  dated:
    table: escala
    professional: prof_id
    date: { column: dia, format: dmy }
    start: { column: ini, format: text }
    end: { column: fim, format: text }
  blocks:
    table: bloqueio
    professional: prof_id
    from: { column: dia, format: dmy }
    start: { column: ini, format: text }
    end: { column: fim, format: text }
`
