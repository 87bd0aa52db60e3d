// A Montreal physiotherapy practice (issue 27) unlike the samples, keeping each patient's
// insurance on the patient's side only: the provincial plan as text on the patient's file
// (OSCAR's `demographic.hc_type`: `QC`, `ON`, often NULL or blank), and the private insurer
// as attribute rows of a kind, some retired (OpenMRS's `person_attribute`: type, voided).
// Portable SQL for `scratchOn`; the mapping in both forms the language tests try.

export const MONTREAL_SCHEMA = `
CREATE TABLE therapist (ther_id INTEGER PRIMARY KEY, display_name VARCHAR(60) NOT NULL);
CREATE TABLE client_file (file_no INTEGER PRIMARY KEY, full_name VARCHAR(80) NOT NULL, cell VARCHAR(30), prov_plan VARCHAR(10), closed CHAR(1) NOT NULL);
CREATE TABLE file_trait (trait_id INTEGER PRIMARY KEY, file_no INTEGER NOT NULL, trait_kind INTEGER NOT NULL, trait_value VARCHAR(40), retired INTEGER NOT NULL);
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, file_no INTEGER NOT NULL, ther_id INTEGER, visit_day DATE NOT NULL, visit_hour VARCHAR(5) NOT NULL, visit_state VARCHAR(2) NOT NULL);
INSERT INTO therapist (ther_id, display_name) VALUES (1, 'Julie Bouchard, pht');
INSERT INTO therapist (ther_id, display_name) VALUES (2, 'Marc Lavoie, pht');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (1, 'Léa Tremblay', '514-555-0101', 'QC', 'N');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (2, 'Owen Walsh', '613-555-0102', 'ON', 'N');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (3, 'Zoé Roy', NULL, NULL, 'N');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (4, 'Raj Patel', NULL, '  ', 'N');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (5, 'Nora Gagnon', NULL, 'QC', 'N');
INSERT INTO client_file (file_no, full_name, cell, prov_plan, closed) VALUES (6, 'Old File', NULL, 'NB', 'Y');
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (1, 1, 7, 'Desjardins', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (2, 1, 3, 'French', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (3, 2, 7, 'Sun Life', 1);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (4, 2, 7, 'Manulife', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (5, 3, 7, 'Desjardins', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (6, 4, 7, '', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (7, 5, 3, 'English', 0);
INSERT INTO file_trait (trait_id, file_no, trait_kind, trait_value, retired) VALUES (8, 6, 7, 'Blue Cross', 0);
INSERT INTO visit (visit_id, file_no, ther_id, visit_day, visit_hour, visit_state) VALUES (1, 1, 1, '2031-03-03', '09:00', 'B');
INSERT INTO visit (visit_id, file_no, ther_id, visit_day, visit_hour, visit_state) VALUES (2, 2, 1, '2031-03-03', '10:00', 'B');
INSERT INTO visit (visit_id, file_no, ther_id, visit_day, visit_hour, visit_state) VALUES (3, 3, 2, '2031-03-03', '11:00', 'C');
INSERT INTO visit (visit_id, file_no, ther_id, visit_day, visit_hour, visit_state) VALUES (4, 4, 2, '2031-03-04', '09:00', 'B');
INSERT INTO visit (visit_id, file_no, ther_id, visit_day, visit_hour, visit_state) VALUES (5, 5, 1, '2031-03-04', '10:00', 'X');
`

/** The insurer attribute rows: of kind 7, not retired. */
const INSURER = '{ all: [{ column: trait_kind, eq: 7 }, { column: retired, eq: 0 }] }'

/**
 * `column`: the provincial plan on the patient's file (`valuesOf: { resource: client }`);
 * `rows`: the insurer's attribute rows (`valuesOf: { table }`). `healthInsurance`: the lookup's
 * lines instead; `write`: the booking's `write.refs.healthInsurance` (none: left out).
 */
export function montrealMapping (form: 'column' | 'rows', v: { healthInsurance?: string, write?: string | null } = {}): string {
  const column = form === 'column'
  const own = column ? 'prov_plan' : 'cov.trait_value'
  const write = v.write === null ? '' : `\n      refs:\n        healthInsurance: ${v.write ?? `{ fromClient: ${own} }`}`
  return `version: 1
installation: montreal-physio
timezone: America/Toronto
phone: { defaultCountry: CA, defaultAreaCode: '514' }
states: { values: [WAITING, CONFIRMED, CANCELED] }
resources:
  appointment:
    table: visit
    key: visit_id
    joins:
${column
    ? '      holder: { table: client_file, on: { file_no: file_no } }'
    : `      cover: { table: file_trait, on: { file_no: file_no }, where: ${INSURER}, first: { key: trait_id } }`}
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hour, format: text }
    state: { column: visit_state, map: { B: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: file_no, professional: ther_id, healthInsurance: ${column ? 'holder.prov_plan' : 'cover.trait_value'} }
    write:
      key: { generate: max }${write}
  client:
    table: client_file
    key: file_no
    where: { column: closed, eq: 'N' }
${column ? '' : `    joins:\n      cov: { table: file_trait, on: { file_no: file_no }, where: ${INSURER}, first: { key: trait_id } }\n`}    fields: { name: full_name }
    phones: [cell]
    write: { key: { generate: max }, set: { closed: { value: 'N' } } }
  professional:
    table: therapist
    key: ther_id
    fields: { name: display_name }
  healthInsurance:
${v.healthInsurance ?? (column
    ? '    valuesOf: { resource: client, column: prov_plan }'
    : `    valuesOf: { table: file_trait, column: trait_value, where: ${INSURER} }`)}
`
}
