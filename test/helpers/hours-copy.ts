// Two clinic schemas for `{ hours: column }` (docs/mapping.md), unlike the samples: a
// Delphi-era agenda whose weekly template HORARIO puts professional 1 in room 2 in the
// mornings and room 5 in the afternoons (AGENDA.SALA, text, copied from HORARIO.SALA, a
// number), and an Open Dental-like dated schedule whose operatory comes through a join
// (`scheduleop`: the afternoon's in two operatories, the first by number taken; a blockout row
// of another SchedType left out). SQL for `scratchOn`; the mappings are also compiled for SQL
// Server by test/language/hours-copy-golden.test.ts.

// 2031-03-04 is a Tuesday: HORARIO's DIA 2 (ISO, as Delphi's DayOfTheWeek counts).
export const DAY = '2031-03-04'

export const DELPHI_SCHEMA = `
CREATE TABLE profissional (cod_prof INTEGER PRIMARY KEY, nome VARCHAR(40));
CREATE TABLE paciente (cod_pac INTEGER PRIMARY KEY, nome VARCHAR(60));
CREATE TABLE horario (id INTEGER PRIMARY KEY, cod_prof INTEGER NOT NULL, dia INTEGER NOT NULL, hr_ini VARCHAR(5), hr_fim VARCHAR(5), sala INTEGER);
CREATE TABLE agenda (cod INTEGER PRIMARY KEY, cod_prof INTEGER, cod_pac INTEGER NOT NULL, data DATE NOT NULL, hora VARCHAR(5) NOT NULL, situacao CHAR(1), sala VARCHAR(3));
INSERT INTO profissional (cod_prof, nome) VALUES (1, 'Dra. Marta Reis');
INSERT INTO paciente (cod_pac, nome) VALUES (1, 'Ana Souza');
INSERT INTO paciente (cod_pac, nome) VALUES (2, 'Bruno Lima');
INSERT INTO horario (id, cod_prof, dia, hr_ini, hr_fim, sala) VALUES (1, 1, 2, '08:00', '12:00', 2);
INSERT INTO horario (id, cod_prof, dia, hr_ini, hr_fim, sala) VALUES (2, 1, 2, '13:00', '18:00', 5);
`

export const DELPHI = `version: 1
installation: hours-copy-delphi
timezone: America/Sao_Paulo
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED] }
resources:
  appointment:
    table: agenda
    key: cod
    start:
      date: { column: data, format: date }
      hour: { column: hora, format: text }
    state: { column: situacao, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: cod_pac, professional: cod_prof }
    write:
      key: { generate: max }
      set:
        sala: { hours: sala }
  professional:
    table: profissional
    key: cod_prof
    fields: { name: nome }
  client:
    table: paciente
    key: cod_pac
    fields: { name: nome }
    write: { key: { generate: max } }
availability:
  weekly:
    table: horario
    professional: cod_prof
    weekday: dia
    weekdayBase: iso
    start: { column: hr_ini, format: text }
    end: { column: hr_fim, format: text }
`

export const DENTAL_SCHEMA = `
CREATE TABLE provider (provnum INTEGER PRIMARY KEY, abbr VARCHAR(20));
CREATE TABLE patient (patnum INTEGER PRIMARY KEY, fname VARCHAR(30), lname VARCHAR(30));
CREATE TABLE schedule (schedulenum INTEGER PRIMARY KEY, scheddate DATE NOT NULL, starttime VARCHAR(5), stoptime VARCHAR(5), provnum INTEGER NOT NULL, schedtype INTEGER NOT NULL);
CREATE TABLE scheduleop (scheduleopnum INTEGER PRIMARY KEY, schedulenum INTEGER NOT NULL, operatorynum INTEGER NOT NULL);
CREATE TABLE appointment (aptnum INTEGER PRIMARY KEY, patnum INTEGER NOT NULL, provnum INTEGER, aptdate DATE NOT NULL, apttime VARCHAR(5) NOT NULL, aptstatus CHAR(1), op INTEGER NOT NULL);
INSERT INTO provider (provnum, abbr) VALUES (1, 'DOC1');
INSERT INTO patient (patnum, fname, lname) VALUES (1, 'Mary', 'Jones');
INSERT INTO patient (patnum, fname, lname) VALUES (2, 'Tom', 'Baker');
INSERT INTO schedule (schedulenum, scheddate, starttime, stoptime, provnum, schedtype) VALUES (10, '${DAY}', '08:00', '12:00', 1, 1);
INSERT INTO schedule (schedulenum, scheddate, starttime, stoptime, provnum, schedtype) VALUES (11, '${DAY}', '13:00', '18:00', 1, 1);
INSERT INTO schedule (schedulenum, scheddate, starttime, stoptime, provnum, schedtype) VALUES (12, '${DAY}', '13:00', '18:00', 1, 2);
INSERT INTO scheduleop (scheduleopnum, schedulenum, operatorynum) VALUES (100, 10, 11);
INSERT INTO scheduleop (scheduleopnum, schedulenum, operatorynum) VALUES (101, 11, 14);
INSERT INTO scheduleop (scheduleopnum, schedulenum, operatorynum) VALUES (102, 11, 12);
INSERT INTO scheduleop (scheduleopnum, schedulenum, operatorynum) VALUES (103, 12, 99);
`

export const DENTAL = `version: 1
installation: hours-copy-dental
timezone: America/Chicago
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED] }
resources:
  appointment:
    table: appointment
    key: aptnum
    start:
      date: { column: aptdate, format: date }
      hour: { column: apttime, format: text }
    state: { column: aptstatus, map: { U: WAITING, C: CONFIRMED, B: CANCELED } }
    refs: { client: patnum, professional: provnum }
    write:
      key: { generate: max }
      set:
        op: { hours: op.operatorynum, otherwise: 0 }
  professional:
    table: provider
    key: provnum
    fields: { name: abbr }
  client:
    table: patient
    key: patnum
    fields: { name: { template: '{fname} {lname}' } }
    write: { key: { generate: max } }
availability:
  dated:
    table: schedule
    where: { column: schedtype, eq: 1 }
    joins:
      op: { table: scheduleop, on: { schedulenum: schedulenum }, first: { key: scheduleopnum, by: [operatorynum] } }
    professional: provnum
    date: { column: scheddate, format: date }
    start: { column: starttime, format: text }
    end: { column: stoptime, format: text }
`
