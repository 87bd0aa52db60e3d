// Six legacy schemas whose first `ponte init` drafts misled strangers going live (issue 27):
// OSCAR with a key/value `demographicExt`, Open Dental's NANP phones, OpenEMR's two status
// columns and durations in seconds, GNU Health's insurance numbers beside its contact rows,
// OpenMRS's appointments linked to a time slot (not the provider's blocks). Portable SQL for
// `scratchOn`, dates relative to today so starts lie ahead and creation stamps behind.
import type { TestDialect } from './app.js'

const day = (offset: number): string => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10)
const stamp = (d: TestDialect): string => d === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
const rows = (table: string, cols: string, values: string[]): string => values.map((v) => `INSERT INTO ${table} (${cols}) VALUES (${v});`).join('\n')
const hh = (h: number): string => String(h).padStart(2, '0')
const uuid = (n: number): string => `'${n.toString(16).padStart(8, '0')}-7c1e-4d2a-9b3f-${(n * 7919).toString(16).padStart(12, '0')}'`

/** OSCAR: phones in `demographic.phone`/`phone2` and a cell phone in `demographicExt` rows under `key_val = 'demo_cell'`; Toronto numbers. */
export const oscarExt = (d: TestDialect): string => `
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL);
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL, phone VARCHAR(20), phone2 VARCHAR(20), province VARCHAR(4));
CREATE TABLE demographicExt (id INTEGER PRIMARY KEY, demographic_no INTEGER NOT NULL, key_val VARCHAR(64) NOT NULL, value VARCHAR(255), date_time ${stamp(d)});
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6), appointment_date DATE, start_time TIME, end_time TIME, demographic_no INTEGER, status CHAR(2));
${rows('provider', 'provider_no, last_name, first_name', ["'201', 'Nguyen', 'Helen'", "'202', 'Okafor', 'Daniel'"])}
${rows('demographic', 'demographic_no, last_name, first_name, phone, phone2, province', [1, 2, 3, 4, 5, 6].map((i) =>
  `${i}, '${['Lavoie', 'Fortin', 'Morin', 'Pelletier', 'Bergeron', 'Leblanc'][i - 1]}', '${['Chloe', 'Noah', 'Emma', 'Liam', 'Zoe', 'Owen'][i - 1]}', '416-555-01${i}2', '647-555-02${i}4', 'ON'`))}
${rows('demographicExt', 'id, demographic_no, key_val, value, date_time', [1, 2, 3, 4, 5].flatMap((i) => [
  `${i * 3}, ${i}, 'demo_cell', '437-555-03${i}6', '${day(-200 + i)} 10:00:00'`,
  `${i * 3 + 1}, ${i}, 'language', '${i % 2 ? 'English' : 'French'}', '${day(-200 + i)} 10:00:00'`,
  `${i * 3 + 2}, ${i}, 'hPhoneExt', '${10 + i}', '${day(-200 + i)} 10:00:00'`]))}
${rows('appointment', 'appointment_no, provider_no, appointment_date, start_time, end_time, demographic_no, status', [...Array(10).keys()].map((i) =>
  `${i + 1}, '${201 + (i % 2)}', '${day(i * 2 - 8)}', '${hh(9 + (i % 6))}:${i % 2 ? '30' : '00'}:00', '${hh(9 + (i % 6))}:${i % 2 ? '44' : '14'}:00', ${(i % 6) + 1}, '${['t', 'C', 'H', 'N', 'a'][i % 5]}'`))}
`

/** Open Dental: home, work and wireless phones spelt `(503)555-0142`, Oregon and Washington area codes. */
export const openDental = (d: TestDialect): string => `
CREATE TABLE provider (ProvNum INTEGER PRIMARY KEY, Abbr VARCHAR(20) NOT NULL, LName VARCHAR(40) NOT NULL, FName VARCHAR(40) NOT NULL);
CREATE TABLE patient (PatNum INTEGER PRIMARY KEY, LName VARCHAR(40) NOT NULL, FName VARCHAR(40) NOT NULL, HmPhone VARCHAR(30), WkPhone VARCHAR(30), WirelessPhone VARCHAR(30), Birthdate DATE);
CREATE TABLE appointment (AptNum INTEGER PRIMARY KEY, PatNum INTEGER NOT NULL, ProvNum INTEGER NOT NULL, AptDateTime ${stamp(d)}, AptStatus INTEGER NOT NULL, DateTStamp ${stamp(d)});
${rows('provider', 'ProvNum, Abbr, LName, FName', ["1, 'DOC1', 'Albright', 'Karen'", "2, 'HYG1', 'Soto', 'Miguel'"])}
${rows('patient', 'PatNum, LName, FName, HmPhone, WkPhone, WirelessPhone, Birthdate', [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
  `${i}, '${['Hansen', 'Reyes', 'Walker', 'Young', 'King', 'Wright', 'Lopez', 'Hill'][i - 1]}', '${['Ava', 'Ben', 'Cora', 'Dale', 'Eve', 'Finn', 'Gia', 'Hal'][i - 1]}', ` +
  `'(${['503', '971', '360'][i % 3]})555-01${i}2', '(503)555-02${i}4', '(${['971', '503'][i % 2]})555-03${i}6', '198${i}-0${i}-1${i}'`))}
${rows('appointment', 'AptNum, PatNum, ProvNum, AptDateTime, AptStatus, DateTStamp', [...Array(12).keys()].map((i) =>
  `${i + 1}, ${(i % 8) + 1}, ${(i % 2) + 1}, '${day(i * 2 - 10)} ${hh(8 + (i % 8))}:${i % 2 ? '30' : '00'}:00', ${[1, 2, 5, 3][i % 4]}, '${day(-30 + i)} 17:00:00'`))}
`

/** Ten-digit numbers without mask or country code that Brazil (DDD 21, 31) and NANP (213, 312) both read: no country to be sure of. */
export const ambiguousPhones = (d: TestDialect): string => `
CREATE TABLE doctor (doctor_id INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL);
CREATE TABLE client (client_id INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, phone VARCHAR(20));
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, client_id INTEGER, doctor_id INTEGER, starts ${stamp(d)}, status VARCHAR(10));
${rows('doctor', 'doctor_id, full_name', ["1, 'Ines Prado'", "2, 'Hugo Lima'"])}
${rows('client', 'client_id, full_name, phone', [1, 2, 3, 4, 5].map((i) => `${i}, '${['Rosa Maia', 'Tito Reis', 'Vera Luz', 'Caio Sena', 'Lia Paz'][i - 1]}', '${['213', '312'][i % 2]}355${i}014'`))}
${rows('visit', 'visit_id, client_id, doctor_id, starts, status', [...Array(8).keys()].map((i) => `${i + 1}, ${(i % 5) + 1}, ${(i % 2) + 1}, '${day(i * 2 - 6)} ${hh(9 + i)}:00:00', '${['booked', 'done'][i % 2]}'`))}
`

/**
 * OpenEMR: `pc_eventstatus` (a flag) before `pc_apptstatus` (the status codes `-`, `@`, `~`, `x`,
 * `?`, `%`, `!`), and `pc_duration` in seconds on the events (no end column) and on the categories.
 */
export const openemrStatus = (d: TestDialect): string => `
CREATE TABLE users (id INTEGER PRIMARY KEY, username VARCHAR(30), fname VARCHAR(40), lname VARCHAR(40));
CREATE TABLE patient_data (id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, fname VARCHAR(40), lname VARCHAR(40), phone_cell VARCHAR(30));
CREATE TABLE openemr_postcalendar_categories (pc_catid INTEGER PRIMARY KEY, pc_catname VARCHAR(40), pc_duration INTEGER NOT NULL);
CREATE TABLE openemr_postcalendar_events (pc_eid INTEGER PRIMARY KEY, pc_catid INTEGER, pc_aid INTEGER, pc_pid INTEGER, pc_time ${stamp(d)}, pc_eventDate DATE, pc_startTime TIME, pc_duration INTEGER, pc_eventstatus INTEGER NOT NULL, pc_apptstatus VARCHAR(15));
${rows('users', 'id, username, fname, lname', ["1, 'admin', 'Gregory', 'House'", "2, 'jwilson', 'James', 'Wilson'"])}
${rows('patient_data', 'id, pid, fname, lname, phone_cell', [1, 2, 3, 4, 5].map((i) => `${100 + i}, ${i}, '${['Ruth', 'Sam', 'Tara', 'Umar', 'Vic'][i - 1]}', '${['Ames', 'Bell', 'Cole', 'Dunn', 'Eddy'][i - 1]}', '+1 201-555-01${i}0'`))}
${rows('openemr_postcalendar_categories', 'pc_catid, pc_catname, pc_duration', ["1, 'Office Visit', 900", "2, 'New Patient', 1800", "3, 'Established Patient', 900", "4, 'Health and Behavioral Assessment', 3600"])}
${rows('openemr_postcalendar_events', 'pc_eid, pc_catid, pc_aid, pc_pid, pc_time, pc_eventDate, pc_startTime, pc_duration, pc_eventstatus, pc_apptstatus', [...Array(14).keys()].map((i) =>
  `${i + 1}, ${(i % 4) + 1}, ${(i % 2) + 1}, ${(i % 5) + 1}, '${day(-40 + i)} 12:00:00', '${day(i * 2 - 12)}', '${hh(9 + (i % 7))}:${i % 2 ? '30' : '00'}:00', ${[900, 1800, 900, 3600][i % 4]}, 1, '${['-', '@', '~', 'x', '?', '%', '!'][i % 7]}'`))}
`

/**
 * GNU Health on Tryton: contact rows in `party_contact_mechanism` (`phone`, `mobile`, `email`) and
 * insurance policies whose numbers start `00` and would read as US Virgin Islands phones;
 * `create_date`/`write_date` on every table (naive UTC); foreign keys declared, as Tryton does.
 */
export const gnuHealthInsurance = (d: TestDialect): string => `
CREATE TABLE party_party (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, lastname VARCHAR(60), dob DATE, create_date ${stamp(d)}, write_date ${stamp(d)});
CREATE TABLE gnuhealth_insurance (id INTEGER PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), number VARCHAR(30) NOT NULL, company INTEGER REFERENCES party_party (id), insurance_type VARCHAR(20), create_date ${stamp(d)}, write_date ${stamp(d)});
CREATE TABLE party_contact_mechanism (id INTEGER PRIMARY KEY, party INTEGER NOT NULL REFERENCES party_party (id), type VARCHAR(20) NOT NULL, value VARCHAR(80), create_date ${stamp(d)}, write_date ${stamp(d)});
CREATE TABLE gnuhealth_patient (id INTEGER PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), create_date ${stamp(d)}, write_date ${stamp(d)});
CREATE TABLE gnuhealth_healthprofessional (id INTEGER PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), create_date ${stamp(d)}, write_date ${stamp(d)});
CREATE TABLE gnuhealth_appointment (id INTEGER PRIMARY KEY, patient INTEGER REFERENCES gnuhealth_patient (id), healthprof INTEGER REFERENCES gnuhealth_healthprofessional (id), appointment_date ${stamp(d)}, appointment_date_end ${stamp(d)}, state VARCHAR(20), create_date ${stamp(d)}, write_date ${stamp(d)});
${rows('party_party', 'id, name, lastname, dob, create_date, write_date', [1, 2, 3, 4, 5, 6, 7].map((i) =>
  `${i}, '${['Sofia', 'Mateo', 'Valentina', 'Thiago', 'Camila', 'Bruno', 'Salud Total'][i - 1]}', '${['Romero', 'Sosa', 'Torres', 'Alvarez', 'Ruiz', 'Benitez', 'SA'][i - 1]}', '19${70 + i}-0${i}-0${i}', '${day(-400)} 10:00:00', '${day(-100)} 10:00:00'`))}
${rows('gnuhealth_insurance', 'id, name, number, company, insurance_type', [1, 2, 3, 4].map((i) => `${i}, ${i}, '00134055501${i}${i}', 7, '${['state', 'private', 'labour', 'private'][i - 1]}'`))}
${rows('party_contact_mechanism', 'id, party, type, value', ["1, 1, 'mobile', '+54 9 11 2345-6781'", "2, 1, 'email', 'sofia@example.com'", "3, 2, 'mobile', '+54 9 11 2345-6782'", "4, 3, 'phone', '+54 11 4345-6783'", "5, 4, 'mobile', '+54 9 351 234-5684'", "6, 5, 'email', 'camila@example.com'"])}
${rows('gnuhealth_patient', 'id, name, create_date', [1, 2, 3, 4].map((i) => `${i}, ${i}, '${day(-300 + i)} 09:00:00'`))}
${rows('gnuhealth_healthprofessional', 'id, name', ['1, 5', '2, 6'])}
${rows('gnuhealth_appointment', 'id, patient, healthprof, appointment_date, appointment_date_end, state, create_date, write_date', [...Array(10).keys()].map((i) =>
  `${i + 1}, ${(i % 4) + 1}, ${(i % 2) + 1}, '${day(i * 2 - 6)} ${11 + (i % 6)}:30:00', '${day(i * 2 - 6)} ${11 + (i % 6)}:50:00', '${['confirmed', 'checked_in', 'done', 'user_cancelled', 'no_show'][i % 5]}', '${day(-30 - i)} 14:00:00', '${day(-20 - i)} 14:00:00'`))}
`

/**
 * OpenMRS with the appointment scheduling module: the provider's blocks (a start, a provider and
 * a location) are no appointments; an appointment links a patient and a time slot. Names in
 * `person_name`, a UNIQUE `uuid` on every row, foreign keys declared as OpenMRS does.
 */
export const openmrs = (d: TestDialect): string => `
CREATE TABLE person (person_id INTEGER PRIMARY KEY, gender VARCHAR(50) NOT NULL, birthdate DATE, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE person_name (person_name_id INTEGER PRIMARY KEY, person_id INTEGER NOT NULL REFERENCES person (person_id), preferred SMALLINT NOT NULL DEFAULT 0, given_name VARCHAR(50), family_name VARCHAR(50), uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY REFERENCES person (person_id), creator INTEGER NOT NULL, date_created ${stamp(d)} NOT NULL, voided SMALLINT NOT NULL DEFAULT 0);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, person_id INTEGER REFERENCES person (person_id), name VARCHAR(255), identifier VARCHAR(50), uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE location (location_id INTEGER PRIMARY KEY, name VARCHAR(255) NOT NULL, address1 VARCHAR(255), city_village VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_type (appointment_type_id INTEGER PRIMARY KEY, name VARCHAR(255) NOT NULL, duration INTEGER NOT NULL, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_block (appointment_block_id INTEGER PRIMARY KEY, start_date ${stamp(d)} NOT NULL, end_date ${stamp(d)} NOT NULL, provider_id INTEGER REFERENCES provider (provider_id), location_id INTEGER NOT NULL REFERENCES location (location_id), voided SMALLINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_time_slot (time_slot_id INTEGER PRIMARY KEY, appointment_block_id INTEGER NOT NULL REFERENCES appointmentscheduling_appointment_block (appointment_block_id), start_date ${stamp(d)} NOT NULL, end_date ${stamp(d)} NOT NULL, voided SMALLINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment (appointment_id INTEGER PRIMARY KEY, time_slot_id INTEGER NOT NULL REFERENCES appointmentscheduling_time_slot (time_slot_id), patient_id INTEGER NOT NULL REFERENCES patient (patient_id), appointment_type_id INTEGER NOT NULL REFERENCES appointmentscheduling_appointment_type (appointment_type_id), status VARCHAR(255) NOT NULL, voided SMALLINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE, creator INTEGER NOT NULL, date_created ${stamp(d)} NOT NULL);
${rows('person', 'person_id, gender, birthdate, uuid', [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `${i}, '${i % 2 ? 'F' : 'M'}', '19${70 + i}-0${i}-1${i}', ${uuid(i)}`))}
${rows('person_name', 'person_name_id, person_id, preferred, given_name, family_name, uuid', [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
  `${i}, ${i}, 1, '${['Amina', 'Kofi', 'Wanjiru', 'Baraka', 'Zawadi', 'Juma', 'Neema', 'Otieno'][i - 1]}', '${['Mwangi', 'Otieno', 'Kamau', 'Njoroge', 'Achieng', 'Mutua', 'Wekesa', 'Odhiambo'][i - 1]}', ${uuid(100 + i)}`))}
${rows('patient', 'patient_id, creator, date_created', [1, 2, 3, 4, 5, 6].map((i) => `${i}, 1, '${day(-300 + i)} 09:00:00'`))}
${rows('provider', 'provider_id, person_id, name, identifier, uuid', [`1, 7, 'Neema Wekesa', 'PRV-1', ${uuid(201)}`, `2, 8, 'Otieno Odhiambo', 'PRV-2', ${uuid(202)}`])}
${rows('location', 'location_id, name, address1, city_village, uuid', [`1, 'Outpatient Clinic', 'Moi Avenue 12', 'Eldoret', ${uuid(301)}`, `2, 'Maternity Ward', 'Moi Avenue 12', 'Eldoret', ${uuid(302)}`, `3, 'Pharmacy', 'Uganda Road 4', 'Eldoret', ${uuid(303)}`])}
${rows('appointmentscheduling_appointment_type', 'appointment_type_id, name, duration, uuid', [`1, 'General Consultation', 20, ${uuid(401)}`, `2, 'Antenatal Visit', 30, ${uuid(402)}`])}
${rows('appointmentscheduling_appointment_block', 'appointment_block_id, start_date, end_date, provider_id, location_id, uuid', [...Array(12).keys()].map((i) =>
  `${i + 1}, '${day(i - 4)} 08:00:00', '${day(i - 4)} 12:00:00', ${(i % 2) + 1}, ${(i % 3) + 1}, ${uuid(500 + i)}`))}
${rows('appointmentscheduling_time_slot', 'time_slot_id, appointment_block_id, start_date, end_date, uuid', [...Array(24).keys()].map((i) =>
  `${i + 1}, ${(i % 12) + 1}, '${day((i % 12) - 4)} ${hh(8 + Math.floor(i / 12) * 2)}:${i % 2 ? '30' : '00'}:00', '${day((i % 12) - 4)} ${hh(8 + Math.floor(i / 12) * 2)}:${i % 2 ? '59' : '29'}:00', ${uuid(600 + i)}`))}
${rows('appointmentscheduling_appointment', 'appointment_id, time_slot_id, patient_id, appointment_type_id, status, uuid, creator, date_created', [...Array(10).keys()].map((i) =>
  `${i + 1}, ${(i * 2) + 1}, ${(i % 6) + 1}, ${(i % 2) + 1}, '${['SCHEDULED', 'COMPLETED', 'CANCELLED', 'MISSED', 'WAITING'][i % 5]}', ${uuid(700 + i)}, 1, '${day(-20 + i)} 09:00:00'`))}
`
