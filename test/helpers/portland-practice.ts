// A US family practice (Portland, Oregon; issue 27) unlike the samples: providers and front
// desk in one `staff` table whose specialty is free text on the row (OpenEMR's
// `users.specialty`, OSCAR's `provider.specialty`), often blank; patients with a home, a work
// and a wireless phone column, spelt as Open Dental keeps them (`(503)555-0142`, no space).
// Portable SQL for `scratchOn`; the mapping with the variants the language tests try.

export const PORTLAND_SCHEMA = `
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, specialty VARCHAR(40), is_provider CHAR(1) NOT NULL);
CREATE TABLE patient (pat_num INTEGER PRIMARY KEY, full_name VARCHAR(80) NOT NULL, hm_phone VARCHAR(30), wk_phone VARCHAR(30), wireless_phone VARCHAR(30));
CREATE TABLE appt (apt_num INTEGER PRIMARY KEY, pat_num INTEGER NOT NULL, prov_num INTEGER, apt_date DATE NOT NULL, apt_time VARCHAR(5) NOT NULL, apt_status INTEGER NOT NULL);
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (1, 'Alice Nguyen, MD', 'Family Medicine', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (2, 'Ben Ortiz, MD', 'Cardiology', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (3, 'Cora Price, DO', 'cardiology', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (4, 'Dev Shah, MD', 'Dermatology  ', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (5, 'Eve Lind, NP', '', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (6, 'Finn Moss, MD', 'Family Medicine', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (7, 'Gus Hale, PA', NULL, 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (8, 'Hana Ito', 'Billing', 'N');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (9, 'Ivy Stone, MD', 'Pediatrics/Neonatal', 'Y');
INSERT INTO staff (staff_id, full_name, specialty, is_provider) VALUES (10, 'Jon Reyes, RN', '   ', 'Y');
INSERT INTO patient (pat_num, full_name, hm_phone, wk_phone, wireless_phone) VALUES (1, 'Mary Ellis', '(503)555-0142', NULL, '(971)555-0123');
INSERT INTO patient (pat_num, full_name, hm_phone, wk_phone, wireless_phone) VALUES (2, 'Tom Baker', NULL, '503.555.0177', NULL);
INSERT INTO appt (apt_num, pat_num, prov_num, apt_date, apt_time, apt_status) VALUES (1, 1, 2, '2031-03-03', '09:00', 1);
`

export interface PortlandVariant {
  /** The client's `write.phoneFormat` (YAML scalar). */
  phoneFormat?: string
  /** The client's `write.phone`. */
  phoneColumn?: string
  /** The specialty lookup, as YAML lines under `specialty:` (default: `valuesOf` the staff's column). */
  specialty?: string
  /** More relations, as YAML list items. */
  relations?: string
}

export function portlandMapping (v: PortlandVariant = {}): string {
  const write = [
    '      key: { generate: max }',
    ...v.phoneFormat !== undefined ? [`      phoneFormat: ${v.phoneFormat}`] : [],
    ...v.phoneColumn !== undefined ? [`      phone: ${v.phoneColumn}`] : []
  ]
  return `version: 1
installation: portland-family-practice
timezone: America/Los_Angeles
phone: { defaultCountry: US, defaultAreaCode: '503' }
states: { values: [WAITING, CONFIRMED, CANCELED] }
resources:
  appointment:
    table: appt
    key: apt_num
    start:
      date: { column: apt_date, format: date }
      hour: { column: apt_time, format: text }
    state: { column: apt_status, type: int, map: { '1': WAITING, '2': CONFIRMED, '5': CANCELED } }
    refs: { client: pat_num, professional: prov_num }
    write: { key: { generate: max } }
  client:
    table: patient
    key: pat_num
    fields: { name: full_name }
    phones: [hm_phone, wk_phone, wireless_phone]
    write:
${write.join('\n')}
  professional:
    table: staff
    key: staff_id
    where: { column: is_provider, eq: 'Y' }
    fields: { name: full_name }
  specialty:
${v.specialty ?? '    valuesOf: { resource: professional, column: specialty }'}
${v.relations !== undefined ? `relations:\n${v.relations}\n` : ''}`
}
