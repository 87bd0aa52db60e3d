// Four clinic schemas unlike the samples, for `ponte init` to recognise by structure and data:
// OpenEMR-like, OSCAR-like, GNU-Health-like and the Lisbon practice's. Portable SQL for
// `scratchOn`, dates relative to today so starts lie ahead and creation stamps behind.
import type { TestDialect } from './app.js'

const day = (offset: number): string => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10)
const stamp = (dialect: TestDialect): string => dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
const serial = (d: TestDialect): string => ({ sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' })[d]
const rows = (table: string, cols: string, values: string[]): string => values.map((v) => `INSERT INTO ${table} (${cols}) VALUES (${v});`).join('\n')

export interface Shape {
  name: string
  schema: (dialect: TestDialect) => string
  /** What a human would map each stored state code to. */
  states: Record<string, string>
  /** The clinic's country, where the phones carry no country code. */
  country?: string
}

export const openemr: Shape = {
  name: 'OpenEMR-like',
  states: { '-': 'WAITING', '*': 'CONFIRMED', '@': 'DONE', x: 'CANCELED', '?': 'MISSED' },
  country: 'US',
  schema: (d) => `
CREATE TABLE users (id INTEGER PRIMARY KEY, username VARCHAR(30), fname VARCHAR(40), lname VARCHAR(40));
CREATE TABLE patient_data (id ${serial(d)}, pid INTEGER NOT NULL, fname VARCHAR(40), lname VARCHAR(40), DOB DATE, phone_home VARCHAR(30), phone_cell VARCHAR(30), ss VARCHAR(11), email VARCHAR(80));
CREATE TABLE openemr_postcalendar_categories (pc_catid INTEGER PRIMARY KEY, pc_catname VARCHAR(40));
CREATE TABLE openemr_postcalendar_events (pc_eid INTEGER PRIMARY KEY, pc_catid INTEGER, pc_aid INTEGER, pc_pid INTEGER, pc_title VARCHAR(60), pc_time ${stamp(d)}, pc_eventDate DATE, pc_startTime TIME, pc_endTime TIME, pc_apptstatus VARCHAR(5));
${rows('users', 'id, username, fname, lname', ["1, 'admin', 'Gregory', 'House'", "2, 'jwilson', 'James', 'Wilson'", "3, 'lcuddy', 'Lisa', 'Cuddy'"])}
${rows('patient_data', 'id, pid, fname, lname, DOB, phone_home, phone_cell, ss, email', [1, 2, 3, 4, 5, 6].map((i) =>
  `${100 + i}, ${i}, '${['John', 'Mary', 'Peter', 'Susan', 'Mark', 'Linda'][i - 1]}', '${['Smith', 'Jones', 'Brown', 'Davis', 'Miller', 'Moore'][i - 1]}', '198${i}-0${i}-1${i}', '(201) 555-01${i}0', '201-555-02${i}0', '123-45-67${i}${i}', 'p${i}@example.com'`))}
${rows('openemr_postcalendar_categories', 'pc_catid, pc_catname', ["1, 'No Show'", "2, 'In Office'", "3, 'Office Visit'", "4, 'Vacation'", "5, 'Established Patient'"])}
${rows('openemr_postcalendar_events', 'pc_eid, pc_catid, pc_aid, pc_pid, pc_title, pc_time, pc_eventDate, pc_startTime, pc_endTime, pc_apptstatus', [...Array(12).keys()].map((i) =>
  `${i + 1}, ${(i % 2) + 3}, ${(i % 3) + 1}, ${(i % 6) + 1}, 'Office Visit', '${day(-40 + i)} 1${i % 8}:2${i % 6}:00', '${day(i * 3 - 12)}', '${9 + (i % 7)}:${i % 2 ? '30' : '00'}:00', '${9 + (i % 7)}:${i % 2 ? '45' : '15'}:00', '${['-', '*', '@', 'x', '?', '-'][i % 6]}'`))}
`
}

export const oscar: Shape = {
  name: 'OSCAR-like',
  states: { t: 'WAITING', C: 'CANCELED', H: 'DONE', N: 'MISSED', a: 'CONFIRMED' },
  country: 'CA',
  schema: (d) => `
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL, provider_type VARCHAR(15));
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL, phone VARCHAR(20), phone2 VARCHAR(20), year_of_birth VARCHAR(4), hin VARCHAR(20));
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6), appointment_date DATE, start_time TIME, end_time TIME, name VARCHAR(50), demographic_no INTEGER, status CHAR(2), createdatetime ${stamp(d)}, updatedatetime ${stamp(d)});
${rows('provider', 'provider_no, last_name, first_name, provider_type', ["'101', 'Chen', 'Amy', 'doctor'", "'102', 'Patel', 'Raj', 'doctor'"])}
${rows('demographic', 'demographic_no, last_name, first_name, phone, phone2, year_of_birth, hin', [1, 2, 3, 4, 5].map((i) =>
  `${i}, '${['Tremblay', 'Roy', 'Gagnon', 'Cote', 'Bouchard'][i - 1]}', '${['Marie', 'Luc', 'Anne', 'Paul', 'Julie'][i - 1]}', '905-555-01${i}3', '905-555-02${i}3', '19${70 + i}', '12345678${i}0'`))}
${rows('appointment', 'appointment_no, provider_no, appointment_date, start_time, end_time, name, demographic_no, status, createdatetime, updatedatetime', [...Array(10).keys()].map((i) =>
  `${i + 1}, '${101 + (i % 2)}', '${day(i * 2 - 8)}', '${10 + (i % 5)}:${i % 2 ? '15' : '00'}:00', '${10 + (i % 5)}:${i % 2 ? '29' : '14'}:00', 'X,Y', ${(i % 5) + 1}, '${['t', 'C', 'H', 'N', 'a'][i % 5]}', '${day(-60 + i)} 08:0${i}:00', '${day(-30 + i)} 08:0${i}:00'`))}
`
}

export const gnuHealth: Shape = {
  name: 'GNU-Health-like',
  states: { confirmed: 'WAITING', checked_in: 'CONFIRMED', done: 'DONE', user_cancelled: 'CANCELED', no_show: 'MISSED' },
  country: 'AR',
  // Tryton numbers every row from a sequence.
  schema: (d) => `
CREATE TABLE party_party (id ${serial(d)}, name VARCHAR(60) NOT NULL, lastname VARCHAR(60), dob DATE, create_date ${stamp(d)});
CREATE TABLE party_contact_mechanism (id ${serial(d)}, party INTEGER NOT NULL, type VARCHAR(20) NOT NULL, value VARCHAR(80));
CREATE TABLE gnuhealth_patient (id ${serial(d)}, name INTEGER NOT NULL, create_date ${stamp(d)});
CREATE TABLE gnuhealth_healthprofessional (id ${serial(d)}, name INTEGER NOT NULL, code VARCHAR(10));
CREATE TABLE gnuhealth_specialty (id ${serial(d)}, name VARCHAR(60) NOT NULL);
CREATE TABLE gnuhealth_appointment (id ${serial(d)}, patient INTEGER, healthprof INTEGER, speciality INTEGER, appointment_date ${stamp(d)}, appointment_date_end ${stamp(d)}, state VARCHAR(20), create_date ${stamp(d)});
${rows('party_party', 'id, name, lastname, dob, create_date', [1, 2, 3, 4, 5, 6].map((i) =>
  `${i}, '${['Ana', 'Diego', 'Lucia', 'Martin', 'Elena', 'Pablo'][i - 1]}', '${['Garcia', 'Lopez', 'Perez', 'Gomez', 'Diaz', 'Ruiz'][i - 1]}', '19${70 + i}-0${i}-0${i}', '${day(-400)} 10:00:00'`))}
${rows('party_contact_mechanism', 'id, party, type, value', ["1, 1, 'mobile', '+54 9 11 2345-6781'", "2, 1, 'email', 'ana@example.com'", "3, 2, 'mobile', '+54 9 11 2345-6782'", "4, 3, 'phone', '+54 11 4345-6783'", "5, 4, 'mobile', '+54 9 11 2345-6784'", "6, 5, 'email', 'elena@example.com'"])}
${rows('gnuhealth_patient', 'id, name, create_date', ["1, 1, '" + day(-300) + " 09:00:00'", "2, 2, '" + day(-300) + " 09:00:00'", "3, 3, '" + day(-200) + " 09:00:00'", "4, 4, '" + day(-100) + " 09:00:00'"])}
${rows('gnuhealth_healthprofessional', 'id, name, code', ["1, 5, 'HP001'", "2, 6, 'HP002'"])}
${rows('gnuhealth_specialty', 'id, name', ["1, 'Cardiology'", "2, 'Pediatrics'"])}
${rows('gnuhealth_appointment', 'id, patient, healthprof, speciality, appointment_date, appointment_date_end, state, create_date', [...Array(10).keys()].map((i) =>
  `${i + 1}, ${(i % 4) + 1}, ${(i % 2) + 1}, ${(i % 2) + 1}, '${day(i * 2 - 6)} ${11 + (i % 6)}:30:00', '${day(i * 2 - 6)} ${11 + (i % 6)}:50:00', '${['confirmed', 'checked_in', 'done', 'user_cancelled', 'no_show'][i % 5]}', '${day(-30 - i)} 14:0${i}:00'`))}
`
}

export const lisbon: Shape = {
  name: 'Lisbon (AgendaPro-like)',
  states: { o: 'WAITING', b: 'WAITING', B: 'CONFIRMED', a: 'DONE', n: 'MISSED', x: 'CANCELED' },
  schema: (d) => `
CREATE TABLE clinician (clin_code VARCHAR(4) PRIMARY KEY, display VARCHAR(60) NOT NULL, active CHAR(1) NOT NULL DEFAULT 'Y');
CREATE TABLE visit_kind (kind_id INTEGER PRIMARY KEY, label VARCHAR(40) NOT NULL, grid VARCHAR(20) NOT NULL);
CREATE TABLE person (person_no INTEGER PRIMARY KEY, given VARCHAR(40) NOT NULL, family VARCHAR(40) NOT NULL, born VARCHAR(10), nif VARCHAR(9), created_utc VARCHAR(19) NOT NULL);
CREATE TABLE person_contact (person_no INTEGER NOT NULL, kind VARCHAR(4) NOT NULL, value VARCHAR(80) NOT NULL, PRIMARY KEY (person_no, kind));
CREATE TABLE slot (slot_id INTEGER PRIMARY KEY, clin_code VARCHAR(4) NOT NULL, start_utc VARCHAR(19) NOT NULL, grid VARCHAR(20) NOT NULL, person_no INTEGER, kind_id INTEGER, st VARCHAR(1)${d === 'mysql' ? ' BINARY' : ''} NOT NULL DEFAULT 'o', note VARCHAR(200));
${rows('clinician', 'clin_code, display, active', ["'RS', 'Dr. Rui Sousa', 'Y'", "'MA', 'Dra. Marta Alves', 'Y'"])}
${rows('visit_kind', 'kind_id, label, grid', ["1, 'Consulta', 'XXX'", "2, 'Higiene', 'XX'"])}
${rows('person', 'person_no, given, family, born, nif, created_utc', ["1, 'Ana', 'Ferreira', '03.04.1985', '123456789', '2025-01-10 10:00:00'", "2, 'João', 'Costa', '17.11.1972', '234567890', '2025-01-10 10:00:00'", "3, 'Luís', 'Martins', '29.02.1996', '345678901', '2025-01-11 10:00:00'"])}
${rows('person_contact', 'person_no, kind, value', ["1, 'MOB', '+351 912 345 678'", "1, 'MAIL', 'ana.f@example.pt'", "2, 'TEL', '+351 21 123 4567'", "2, 'MOB', '936 555 123'", "3, 'MOB', '00351 965 432 109'"])}
${rows('slot', 'slot_id, clin_code, start_utc, grid, person_no, kind_id, st', [...Array(12).keys()].map((i) =>
  `${i + 1}, '${i % 2 ? 'RS' : 'MA'}', '${day(i - 4)} ${String(9 + (i % 5)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00', 'XXX', ${i % 4 === 0 ? 'NULL' : (i % 3) + 1}, ${i % 4 === 0 ? 'NULL' : (i % 2) + 1}, '${i % 4 === 0 ? 'o' : ['b', 'B', 'a', 'n', 'x', 'b'][i % 6]}'`))}
`
}

/**
 * References only the declared foreign keys tell: opaque column names, and member keys that are
 * all staff badges too (values fit both tables; the smaller one fits tighter); names abbreviated
 * `first_nm`/`last_nm` as US hospital schemas do.
 */
export const declaredKeys: Shape = {
  name: 'declared foreign keys',
  states: { P: 'WAITING', K: 'CONFIRMED', F: 'DONE', X: 'CANCELED' },
  schema: (d) => `
CREATE TABLE staff (badge INTEGER PRIMARY KEY, surname VARCHAR(40) NOT NULL, given VARCHAR(40) NOT NULL);
CREATE TABLE member (member_key INTEGER PRIMARY KEY, last_nm VARCHAR(40) NOT NULL, first_nm VARCHAR(40) NOT NULL, mobile VARCHAR(20), born DATE);
CREATE TABLE booking (bk INTEGER PRIMARY KEY, attending INTEGER NOT NULL REFERENCES staff (badge), booked_for INTEGER REFERENCES member (member_key), starts ${stamp(d)} NOT NULL, ends ${stamp(d)}, st CHAR(1) NOT NULL);
${rows('staff', 'badge, surname, given', ["1, 'Okafor', 'Ngozi'", "2, 'Lindqvist', 'Erik'", "3, 'Haddad', 'Samir'"])}
${rows('member', 'member_key, last_nm, first_nm, mobile, born', [1, 2, 3, 4, 5].map((i) =>
  `${i}, '${['Novak', 'Rossi', 'Kowalski', 'Silva', 'Murphy'][i - 1]}', '${['Jan', 'Giulia', 'Anna', 'Rita', 'Sean'][i - 1]}', '+44 7700 90012${i}', '198${i}-0${i}-1${i}'`))}
${rows('booking', 'bk, attending, booked_for, starts, ends, st', [...Array(9).keys()].map((i) =>
  `${i + 1}, ${3 - (i % 3)}, ${(i % 3) + 1}, '${day(i * 2 - 6)} ${10 + (i % 6)}:00:00', '${day(i * 2 - 6)} ${10 + (i % 6)}:30:00', '${['P', 'K', 'F', 'X'][i % 4]}'`))}
`
}

export const SHAPES = [openemr, oscar, gnuHealth, lisbon]

/**
 * The Chicago clinic's: its locations a `site` table holding only names, with parentheses,
 * digits and an ampersand (`Urgent Care (24h)`), and visit types labelled alike; a status in
 * words, phones in NANP spellings.
 */
export const chicago: Shape = {
  name: 'Chicago (sites)',
  states: { Scheduled: 'WAITING', Confirmed: 'CONFIRMED', Cancelled: 'CANCELED', 'No Show': 'MISSED', Completed: 'DONE' },
  country: 'US',
  schema: (d) => `
CREATE TABLE site (site_id INTEGER PRIMARY KEY, site_name VARCHAR(60) NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL, npi VARCHAR(10));
CREATE TABLE visit_type (visit_type_id INTEGER PRIMARY KEY, label VARCHAR(60) NOT NULL);
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL, dob DATE, cell_phone VARCHAR(20));
CREATE TABLE appt (appt_id INTEGER PRIMARY KEY, patient_id INTEGER, provider_id INTEGER NOT NULL, site_id INTEGER NOT NULL, visit_type_id INTEGER, starts_at ${stamp(d)} NOT NULL, ends_at ${stamp(d)}, status VARCHAR(12) NOT NULL, created_at ${stamp(d)});
${rows('site', 'site_id, site_name', ["1, 'Urgent Care (24h)'", "2, 'Main Street Family Practice'", "3, 'Pilsen Clinic #2'", "4, 'Women''s Health & Pediatrics (Hyde Park)'"])}
${rows('provider', 'provider_id, first_name, last_name, npi', ["1, 'Maria', 'Gonzalez', '1234567893'", "2, 'David', 'Kim', '1245319599'", "3, 'Aisha', 'Johnson', '1982746350'"])}
${rows('visit_type', 'visit_type_id, label', ["1, 'New Patient (30 min)'", "2, 'Follow-up 15'", "3, 'Flu Shot'"])}
${rows('patient', 'patient_id, first_name, last_name, dob, cell_phone', [1, 2, 3, 4, 5, 6].map((i) =>
  `${i}, '${['James', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda'][i - 1]}', '${['Williams', 'Brown', 'Garcia', 'Miller', 'Wilson', 'Taylor'][i - 1]}', '197${i}-0${i}-2${i}', '(312) 555-01${i}${i}'`))}
${rows('appt', 'appt_id, patient_id, provider_id, site_id, visit_type_id, starts_at, ends_at, status, created_at', [...Array(12).keys()].map((i) =>
  `${i + 1}, ${(i % 6) + 1}, ${(i % 3) + 1}, ${(i % 4) + 1}, ${(i % 3) + 1}, '${day(i * 2 - 8)} ${String(8 + (i % 9)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00', '${day(i * 2 - 8)} ${String(8 + (i % 9)).padStart(2, '0')}:${i % 2 ? '45' : '15'}:00', '${['Scheduled', 'Confirmed', 'Cancelled', 'No Show', 'Completed'][i % 5]}', '${day(-50 + i)} 12:00:00'`))}
`
}
