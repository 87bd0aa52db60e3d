// Two schemas generated for the tests of a ref defaulting to the booked client's own
// (`write.refs.<ref>.fromClient`), unlike the samples: a Delphi-style agenda copying the
// patient's convênio from the patient's row, and a dental schema reaching the patient's plan
// through link rows (person_plan → enrolment, first by rank), storing the plan's number and
// reading its carrier. Used by test/language/client-default*.test.ts.

export const DAY = '2031-03-04'

export const AGENDA_SCHEMA = `
CREATE TABLE paciente (codigo INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL, celular VARCHAR(20), codconvenio INTEGER);
CREATE TABLE convenio (codigo INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE medico (codigo INTEGER PRIMARY KEY, nome VARCHAR(40) NOT NULL);
CREATE TABLE agenda (codigo INTEGER PRIMARY KEY, codpaciente INTEGER NOT NULL, codmedico INTEGER NOT NULL, codconvenio INTEGER, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, status CHAR(1) NOT NULL);
INSERT INTO paciente (codigo, nome, celular, codconvenio) VALUES (1, 'Ana Souza', '11987650101', 10);
INSERT INTO paciente (codigo, nome, celular, codconvenio) VALUES (2, 'Bruno Lima', '11987650102', NULL);
INSERT INTO paciente (codigo, nome, celular, codconvenio) VALUES (3, 'Carla Dias', '11987650103', 0);
INSERT INTO convenio (codigo, nome) VALUES (10, 'Unimed');
INSERT INTO convenio (codigo, nome) VALUES (20, 'Particular');
INSERT INTO convenio (codigo, nome) VALUES (30, 'Bradesco Saude');
INSERT INTO medico (codigo, nome) VALUES (7, 'Dra. Nara Dias');
INSERT INTO medico (codigo, nome) VALUES (8, 'Dr. Otavio Reis');
CREATE TABLE medico_convenio (codmedico INTEGER NOT NULL, codconvenio INTEGER NOT NULL);
INSERT INTO medico_convenio (codmedico, codconvenio) VALUES (7, 10);
INSERT INTO medico_convenio (codmedico, codconvenio) VALUES (7, 20);
INSERT INTO medico_convenio (codmedico, codconvenio) VALUES (7, 30);
INSERT INTO medico_convenio (codmedico, codconvenio) VALUES (8, 20);
`

export const AGENDA_REF = '        healthInsurance: { fromClient: { column: codconvenio, nullIf: [0] }, otherwise: 20 }'

export function agendaMapping (refLine = AGENDA_REF): string {
  return `version: 1
installation: agenda-convenio
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: agenda
    key: codigo
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state: { column: status, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs:
      client: codpaciente
      professional: codmedico
      healthInsurance: codconvenio
    write:
      key: { generate: max }
      refs:
${refLine}
  client:
    table: paciente
    key: codigo
    fields: { name: nome }
    phones: [celular]
    write:
      key: { generate: max }
      phoneFormat: digits
  professional:
    table: medico
    key: codigo
    fields: { name: nome }
  healthInsurance:
    table: convenio
    key: codigo
    fields: { name: nome }
relations:
  - between: [professional, healthInsurance]
    table: medico_convenio
    columns: { professional: codmedico, healthInsurance: codconvenio }
`
}

// Person 13's plans: policy 3 (carrier 3) by an older link row of rank 2, policy 2 (carrier 2)
// of rank 1; person 12 is a dependant on person 11's policy 1; person 14 has no plan.
export const DENTAL_SCHEMA = `
CREATE TABLE person (person_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, phone VARCHAR(20));
CREATE TABLE carrier (carrier_no INTEGER PRIMARY KEY, carrier_name VARCHAR(40) NOT NULL);
CREATE TABLE policy (policy_no INTEGER PRIMARY KEY, carrier_no INTEGER NOT NULL, group_name VARCHAR(40));
CREATE TABLE enrolment (enrol_no INTEGER PRIMARY KEY, policy_no INTEGER NOT NULL, holder_no INTEGER NOT NULL);
CREATE TABLE person_plan (pp_no INTEGER PRIMARY KEY, person_no INTEGER NOT NULL, rank_no INTEGER NOT NULL, enrol_no INTEGER NOT NULL);
CREATE TABLE dentist (dentist_no INTEGER PRIMARY KEY, dentist_name VARCHAR(40) NOT NULL);
CREATE TABLE visit (visit_no INTEGER PRIMARY KEY, person_no INTEGER NOT NULL, dentist_no INTEGER NOT NULL, policy_no INTEGER NOT NULL DEFAULT 0, visit_day DATE NOT NULL, visit_hm VARCHAR(5) NOT NULL, status_code CHAR(1) NOT NULL);
INSERT INTO person (person_no, full_name, phone) VALUES (11, 'Rita Gomes', '11987650111');
INSERT INTO person (person_no, full_name, phone) VALUES (12, 'Caio Gomes', '11987650112');
INSERT INTO person (person_no, full_name, phone) VALUES (13, 'Lia Moura', '11987650113');
INSERT INTO person (person_no, full_name, phone) VALUES (14, 'Davi Reis', '11987650114');
INSERT INTO carrier (carrier_no, carrier_name) VALUES (1, 'OdontoPrev');
INSERT INTO carrier (carrier_no, carrier_name) VALUES (2, 'Amil Dental');
INSERT INTO carrier (carrier_no, carrier_name) VALUES (3, 'Uniodonto');
INSERT INTO policy (policy_no, carrier_no, group_name) VALUES (1, 1, 'ACME');
INSERT INTO policy (policy_no, carrier_no, group_name) VALUES (2, 2, 'Individual');
INSERT INTO policy (policy_no, carrier_no, group_name) VALUES (3, 3, 'Antigo');
INSERT INTO enrolment (enrol_no, policy_no, holder_no) VALUES (1, 1, 11);
INSERT INTO enrolment (enrol_no, policy_no, holder_no) VALUES (2, 2, 13);
INSERT INTO enrolment (enrol_no, policy_no, holder_no) VALUES (3, 3, 13);
INSERT INTO person_plan (pp_no, person_no, rank_no, enrol_no) VALUES (1, 11, 1, 1);
INSERT INTO person_plan (pp_no, person_no, rank_no, enrol_no) VALUES (2, 12, 1, 1);
INSERT INTO person_plan (pp_no, person_no, rank_no, enrol_no) VALUES (3, 13, 2, 3);
INSERT INTO person_plan (pp_no, person_no, rank_no, enrol_no) VALUES (4, 13, 1, 2);
INSERT INTO dentist (dentist_no, dentist_name) VALUES (5, 'Dr. Felipe Costa');
`

export const OWNED = '          fromClient: { column: enr.policy_no, nullIf: [0], owned: true }'
export const NOT_OWNED = '          fromClient: { column: enr.policy_no, nullIf: [0] }'

export function dentalMapping (fromLine = OWNED): string {
  return `version: 1
installation: dental-plans
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: visit
    key: visit_no
    joins:
      pol: { table: policy, on: { policy_no: policy_no } }
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hm, format: text }
    state: { column: status_code, map: { w: WAITING, c: CONFIRMED, x: CANCELED } }
    refs:
      client: person_no
      professional: dentist_no
      healthInsurance: pol.carrier_no
    write:
      key: { generate: max }
      refs:
        healthInsurance:
          firstOf: pol
${fromLine}
  client:
    table: person
    key: person_no
    joins:
      pp: { table: person_plan, on: { person_no: person_no }, first: { key: pp_no, by: [rank_no] } }
      enr: { table: enrolment, from: pp, on: { enrol_no: enrol_no } }
    fields: { name: full_name }
    phones: [phone]
    write:
      key: { generate: max }
      phoneFormat: digits
  professional:
    table: dentist
    key: dentist_no
    fields: { name: dentist_name }
  healthInsurance:
    table: carrier
    key: carrier_no
    fields: { name: carrier_name }
`
}
