// Six legacy systems as strangers built them from the real products (issue 27's "init gives a
// draft that check accepts for each"), trimmed to the traits that misled `ponte init`, each on
// the database the product runs on: OpenEMR, Open Dental, OSCAR and OpenMRS on MariaDB (Open
// Dental and OSCAR on MyISAM), GNU Health on PostgreSQL, a Delphi-era Brazilian agenda on SQLite.
// Codes, names and engines as the products keep them; links left undeclared where they do;
// dates relative to today, so starts lie ahead and behind.

const DAY = 86400000
/** A day relative to today, ISO (`2026-12-01`). */
const day = (offset: number): string => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10)
/** A day relative to today as a Delphi desk writes it (`01/12/2026`). */
const dmy = (offset: number): string => { const [y, m, d] = day(offset).split('-'); return `${d}/${m}/${y}` }
/** Sunday 0 … Saturday 6 of a day relative to today. */
const weekdayOf = (offset: number): number => new Date(`${day(offset)}T12:00:00Z`).getUTCDay()
const hh = (h: number): string => String(h).padStart(2, '0')
type Cell = string | number | boolean | null
const quote = (v: Cell): string => v === null ? 'NULL' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : `'${v.replace(/'/g, '\'\'')}'`
const rows = (table: string, cols: string, values: Cell[][]): string =>
  values.map((v) => `INSERT INTO ${table} (${cols}) VALUES (${v.map(quote).join(', ')});`).join('\n')
const uuid = (n: number): string => `${n.toString(16).padStart(8, '0')}-1a2b-4c3d-8e4f-${(n * 7919).toString(16).padStart(12, '0')}`
/** A valid CPF from nine digits, masked. */
function cpf (n: number): string {
  const d = String(100000000 + n * 7919).slice(0, 9).split('').map(Number)
  for (const k of [10, 11]) { const s = d.reduce((a, x, i) => a + x * (k - i), 0); d.push((s * 10) % 11 % 10) }
  const t = d.join('')
  return `${t.slice(0, 3)}.${t.slice(3, 6)}.${t.slice(6, 9)}-${t.slice(9)}`
}
const GIVEN = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elisa', 'Fabio', 'Gisele', 'Heitor', 'Iara', 'Joao', 'Karina', 'Luis']
const FAMILY = ['Silva', 'Souza', 'Costa', 'Lima', 'Rocha', 'Alves', 'Dias', 'Nunes', 'Pires', 'Melo', 'Ramos', 'Teixeira']

/**
 * OpenEMR 7: the events table keeps patients' visits and the providers' own In Office, Out Of
 * Office and Lunch events (no patient, categories of their own); status codes named only in
 * `list_options` (list `apptstat`, Portuguese titles) among other lists; `pc_aid` naming
 * `users`; `pc_recurrtype` numbers that happen to equal insurers' ids; no declared keys.
 */
export function openemrSix (): string {
  const status = ['-', '-', '*', 'x', '?', '@', '>', '>', 'SMS', 'AVM', '%']
  const events: Cell[][] = []
  let id = 1
  for (let i = 0; i < 30; i++) {
    const offset = i - 12
    const st = offset < 0 ? ['>', '?', 'x', '@', '%', '>'][i % 6] : status[i % status.length]
    events.push([id++, [5, 9, 10][i % 3], 0, String(2 + (i % 2)), String((i % 10) + 1), ['Office Visit', 'Established Patient', 'New Patient'][i % 3], `${day(offset - 5)} 10:00:00`, '',
      day(offset), 900, i % 9 === 0 ? 1 : i % 13 === 0 ? 3 : 0, `${hh(9 + (i % 7))}:${i % 2 ? '30' : '00'}:00`, `${hh(9 + (i % 7))}:${i % 2 ? '45' : '15'}:00`, 1, 1 + (i % 2), st])
  }
  for (const [cat, title, from, to] of [[2, 'In Office', '08:00', '08:15'], [3, 'Out Of Office', '17:00', '17:15'], [8, 'Lunch', '12:00', '13:00']] as const) {
    for (const aid of ['2', '3']) events.push([id++, cat, 0, aid, '', title, `${day(-30)} 08:00:00`, '', day(1), 900, 1, `${from}:00`, `${to}:00`, 1, 1, '-'])
  }
  // A walk-in: an Office Visit booked with no patient record, as visits with one are.
  events.push([id++, 5, 0, '2', '', 'Office Visit', `${day(-1)} 08:00:00`, '', day(2), 900, 0, '15:00:00', '15:15:00', 1, 1, '-'])
  return `
CREATE TABLE users (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, username VARCHAR(255), fname VARCHAR(255), lname VARCHAR(255), authorized TINYINT, facility_id INT NOT NULL DEFAULT 0, calendar TINYINT NOT NULL DEFAULT 0, notes TEXT);
CREATE TABLE facility (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255), street VARCHAR(255), city VARCHAR(255), state VARCHAR(50), postal_code VARCHAR(11));
CREATE TABLE patient_data (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, pid BIGINT NOT NULL DEFAULT 0, fname VARCHAR(255), lname VARCHAR(255), DOB DATE, ss VARCHAR(255), phone_cell VARCHAR(255), email VARCHAR(255), providerID INT);
CREATE TABLE insurance_companies (id INT NOT NULL PRIMARY KEY, name VARCHAR(255), attn VARCHAR(255));
CREATE TABLE list_options (list_id VARCHAR(100) NOT NULL, option_id VARCHAR(100) NOT NULL, title VARCHAR(255), seq INT NOT NULL DEFAULT 0, is_default TINYINT NOT NULL DEFAULT 0, PRIMARY KEY (list_id, option_id));
CREATE TABLE openemr_postcalendar_categories (pc_catid INT NOT NULL AUTO_INCREMENT PRIMARY KEY, pc_catname VARCHAR(100), pc_duration BIGINT NOT NULL DEFAULT 0, pc_cattype INT NOT NULL);
CREATE TABLE openemr_postcalendar_events (pc_eid INT NOT NULL AUTO_INCREMENT PRIMARY KEY, pc_catid INT NOT NULL DEFAULT 0, pc_multiple INT NOT NULL, pc_aid VARCHAR(255), pc_pid VARCHAR(11), pc_title VARCHAR(150), pc_time DATETIME, pc_contname VARCHAR(50), pc_eventDate DATE NOT NULL, pc_duration BIGINT NOT NULL DEFAULT 0, pc_recurrtype INT NOT NULL DEFAULT 0, pc_startTime TIME, pc_endTime TIME, pc_eventstatus INT NOT NULL DEFAULT 0, pc_facility INT NOT NULL DEFAULT 0, pc_apptstatus VARCHAR(15) NOT NULL DEFAULT '-');
${rows('users', 'id, username, fname, lname, authorized, calendar', [[1, 'admin', 'Administrator', 'Sistema', 0, 0], [2, 'rmoura', 'Renata', 'Moura', 1, 1], [3, 'cbarros', 'Caio', 'Barros', 1, 1]])}
${rows('facility', 'id, name, street, city, state, postal_code', [[1, 'Clinica Centro', 'Rua Augusta 100', 'Sao Paulo', 'SP', '01305-000'], [2, 'Unidade Moema', 'Av. Ibirapuera 2000', 'Sao Paulo', 'SP', '04029-200']])}
${rows('patient_data', 'id, pid, fname, lname, DOB, ss, phone_cell, email, providerID', GIVEN.slice(0, 10).map((g, i) =>
    [100 + i, i + 1, g, FAMILY[i], `19${70 + i}-0${(i % 9) + 1}-1${i % 9}`, cpf(i + 1), `(11) 9${8000 + i}-${1000 + i}`, `${g.toLowerCase()}@example.com.br`, 2 + (i % 2)]))}
${rows('insurance_companies', 'id, name, attn', [[1, 'Unimed', ''], [2, 'Bradesco Saude', ''], [3, 'SulAmerica', ''], [4, 'Amil', '']])}
${rows('list_options', 'list_id, option_id, title, seq, is_default', [
    ['apptstat', '-', '- Nenhum', 10, 1], ['apptstat', '*', '* Lembrete enviado', 20, 0], ['apptstat', 'x', 'x Cancelado', 40, 0], ['apptstat', '?', '? Não compareceu', 50, 0],
    ['apptstat', '@', '@ Chegou', 60, 0], ['apptstat', '>', '> Atendido', 110, 0], ['apptstat', '%', '% Cancelado < 24h', 130, 0], ['apptstat', 'SMS', 'SMS Confirmado por SMS', 150, 0],
    ['apptstat', 'AVM', 'AVM Confirmado por ligação', 140, 0], ['apptstat', '!', '! Saiu sem atendimento', 80, 0],
    ['sex', 'Female', 'Feminino', 10, 0], ['sex', 'Male', 'Masculino', 20, 0], ['yesno', 'NO', 'Não', 10, 0], ['yesno', 'YES', 'Sim', 20, 0]])}
${rows('openemr_postcalendar_categories', 'pc_catid, pc_catname, pc_duration, pc_cattype', [[2, 'In Office', 0, 1], [3, 'Out Of Office', 0, 1], [5, 'Office Visit', 900, 0], [8, 'Lunch', 3600, 1], [9, 'Established Patient', 900, 0], [10, 'New Patient', 1800, 0]])}
${rows('openemr_postcalendar_events', 'pc_eid, pc_catid, pc_multiple, pc_aid, pc_pid, pc_title, pc_time, pc_contname, pc_eventDate, pc_duration, pc_recurrtype, pc_startTime, pc_endTime, pc_eventstatus, pc_facility, pc_apptstatus', events)}
`
}

/**
 * Open Dental on MyISAM: `appointment` beside `histappointment`, its audit copy with the same
 * columns and as many rows, so its `AptNum` is distinct and the appointment's unused `NextAptNum`
 * (all 0) is named like a reference to it; status numbers no table names (1 scheduled, 2 complete, 5 broken, 6
 * planned at `0001-01-01`); phones spelt `(503)555-0142`, which `masked` is not, one without its
 * area code (`555-0172`); the phones American, no zone given.
 */
export function openDentalSix (): string {
  const apts: Cell[][] = []
  for (let i = 0; i < 24; i++) {
    const offset = i - 8
    const planned = i === 23
    apts.push([i + 1, (i % 8) + 1, planned ? 6 : offset < 0 ? [2, 2, 5][i % 3] : 1, (i % 2) + 1, 1, (i % 3) + 1, planned ? '0001-01-01 00:00:00' : `${day(offset)} ${hh(8 + (i % 8))}:${i % 2 ? '30' : '00'}:00`, '/XXXX/', `${day(-30)} 10:00:00`])
  }
  const cols = 'AptNum, PatNum, AptStatus, ProvNum, ClinicNum, AppointmentTypeNum, AptDateTime, Pattern, SecDateTEntry'
  const hist = apts.map((a, i) => [i + 1, ...a, `${day(-20 + (i % 10))} 11:00:00`])
  return `
CREATE TABLE provider (ProvNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, Abbr VARCHAR(255) NOT NULL DEFAULT '', LName VARCHAR(100) NOT NULL DEFAULT '', FName VARCHAR(100) NOT NULL DEFAULT '') ENGINE=MyISAM;
CREATE TABLE clinic (ClinicNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, Description VARCHAR(255) NOT NULL DEFAULT '', Address VARCHAR(255) NOT NULL DEFAULT '', City VARCHAR(255) NOT NULL DEFAULT '', State VARCHAR(255) NOT NULL DEFAULT '', Zip VARCHAR(255) NOT NULL DEFAULT '') ENGINE=MyISAM;
CREATE TABLE appointmenttype (AppointmentTypeNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, AppointmentTypeName VARCHAR(255) NOT NULL DEFAULT '', Pattern VARCHAR(255) NOT NULL DEFAULT '') ENGINE=MyISAM;
CREATE TABLE patient (PatNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, LName VARCHAR(100) NOT NULL DEFAULT '', FName VARCHAR(100) NOT NULL DEFAULT '', HmPhone VARCHAR(30) NOT NULL DEFAULT '', WkPhone VARCHAR(30) NOT NULL DEFAULT '', WirelessPhone VARCHAR(30) NOT NULL DEFAULT '', Email VARCHAR(100) NOT NULL DEFAULT '', Birthdate DATE NOT NULL DEFAULT '0001-01-01', PriProv BIGINT NOT NULL DEFAULT 0) ENGINE=MyISAM;
CREATE TABLE appointment (AptNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, PatNum BIGINT NOT NULL DEFAULT 0, AptStatus TINYINT UNSIGNED NOT NULL DEFAULT 0, ProvNum BIGINT NOT NULL DEFAULT 0, ClinicNum BIGINT NOT NULL DEFAULT 0, AppointmentTypeNum BIGINT NOT NULL DEFAULT 0, Op BIGINT NOT NULL DEFAULT 0, AptDateTime DATETIME NOT NULL DEFAULT '0001-01-01 00:00:00', NextAptNum BIGINT NOT NULL DEFAULT 0, Pattern VARCHAR(255) DEFAULT '', SecDateTEntry DATETIME NOT NULL DEFAULT '0001-01-01 00:00:00', DateTStamp TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP) ENGINE=MyISAM;
CREATE TABLE histappointment (HistApptNum BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, AptNum BIGINT NOT NULL DEFAULT 0, PatNum BIGINT NOT NULL DEFAULT 0, AptStatus TINYINT UNSIGNED NOT NULL DEFAULT 0, ProvNum BIGINT NOT NULL DEFAULT 0, ClinicNum BIGINT NOT NULL DEFAULT 0, AppointmentTypeNum BIGINT NOT NULL DEFAULT 0, Op BIGINT NOT NULL DEFAULT 0, AptDateTime DATETIME NOT NULL DEFAULT '0001-01-01 00:00:00', NextAptNum BIGINT NOT NULL DEFAULT 0, Pattern VARCHAR(255) DEFAULT '', SecDateTEntry DATETIME NOT NULL DEFAULT '0001-01-01 00:00:00', DateTStamp TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, HistDateTStamp DATETIME NOT NULL DEFAULT '0001-01-01 00:00:00') ENGINE=MyISAM;
${rows('provider', 'ProvNum, Abbr, LName, FName', [[1, 'DOC1', 'Albright', 'Karen'], [2, 'HYG1', 'Soto', 'Miguel']])}
${rows('clinic', 'ClinicNum, Description, Address, City, State, Zip', [[1, 'Portland Downtown', '1200 SW Main St', 'Portland', 'OR', '97205']])}
${rows('appointmenttype', 'AppointmentTypeNum, AppointmentTypeName, Pattern', [[1, 'Exam', '//XX//'], [2, 'Cleaning', '/XXXX/'], [3, 'Crown Prep', '/XXXXXX/']])}
${rows('patient', 'PatNum, LName, FName, HmPhone, WkPhone, WirelessPhone, Email, Birthdate', ['Hansen', 'Reyes', 'Walker', 'Young', 'King', 'Wright', 'Lopez', 'Hill'].map((l, i) =>
    [i + 1, l, ['Ava', 'Ben', 'Cora', 'Dale', 'Eve', 'Finn', 'Gia', 'Hal'][i], i === 7 ? '555-0172' : `(${['503', '971', '360'][i % 3]})555-01${i}2`, `(503)555-02${i}4`, `(${['971', '503'][i % 2]})555-03${i}6`, `p${i}@example.com`, `198${i}-0${i + 1}-1${i}`]))}
${rows('appointment', cols, apts)}
${rows('histappointment', `HistApptNum, ${cols}, HistDateTStamp`, hist)}
`
}

/**
 * OSCAR on MyISAM: `appointment` beside its empty `appointmentArchive`; status codes told apart
 * by case (`b` left message, `B` billed) and followed by a modifier letter (`BV`, `HS`), named
 * in `appointment_status`; the site and the visit type kept as their names; walk-ins with
 * `demographic_no` 0; cell phones in `demographicExt` rows.
 */
export function oscarSix (): string {
  const apps: Cell[][] = []
  const sites = ['Main Street Clinic', 'Lakeshore Clinic']
  for (let i = 0; i < 30; i++) {
    const offset = i - 12
    const st = offset < 0 ? ['B', 'BV', 'N', 'C', 'HS', 'B'][i % 6] : ['t', 't', 'a', 'T', 'C', 'b', 'tV'][i % 7]
    const h = 9 + (i % 7)
    apps.push([i + 1, ['101', '102'][i % 2], day(offset), `${hh(h)}:00:00`, `${hh(h)}:14:00`, `${FAMILY[i % 10].toUpperCase()},${GIVEN[i % 10].toUpperCase()}`, (i % 10) + 1, sites[i % 2], ['Office Visit', 'Flu Shot', ''][i % 3], st, `${day(offset - 7)} 10:20:00`])
  }
  apps.push([31, '102', day(1), '10:00:00', '10:14:00', 'WALKIN MCKAY', 0, sites[0], '', 't', `${day(0)} 08:00:00`])
  return `
CREATE TABLE provider (provider_no VARCHAR(6) NOT NULL DEFAULT '' PRIMARY KEY, last_name VARCHAR(30) NOT NULL DEFAULT '', first_name VARCHAR(30) NOT NULL DEFAULT '', provider_type VARCHAR(15) NOT NULL DEFAULT '', status CHAR(1)) ENGINE=MyISAM;
CREATE TABLE demographic (demographic_no INT NOT NULL AUTO_INCREMENT PRIMARY KEY, last_name VARCHAR(30) NOT NULL DEFAULT '', first_name VARCHAR(30) NOT NULL DEFAULT '', phone VARCHAR(20), phone2 VARCHAR(20), email VARCHAR(100), provider_no VARCHAR(6)) ENGINE=MyISAM;
CREATE TABLE demographicExt (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, demographic_no INT, key_val VARCHAR(64), value TEXT, date_time DATETIME) ENGINE=MyISAM;
CREATE TABLE site (site_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(30) NOT NULL, address VARCHAR(255), city VARCHAR(25), status TINYINT NOT NULL DEFAULT 1) ENGINE=MyISAM;
CREATE TABLE appointmentType (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, duration INT, notes VARCHAR(80)) ENGINE=MyISAM;
CREATE TABLE appointment_status (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, status CHAR(2) NOT NULL, description VARCHAR(30), color VARCHAR(7), icon VARCHAR(30), active INT DEFAULT 1) ENGINE=MyISAM;
CREATE TABLE appointment (appointment_no INT NOT NULL AUTO_INCREMENT PRIMARY KEY, provider_no VARCHAR(6) NOT NULL DEFAULT '', appointment_date DATE NOT NULL, start_time TIME NOT NULL, end_time TIME NOT NULL, name VARCHAR(50), demographic_no INT, location VARCHAR(30), type VARCHAR(50), status CHAR(2), createdatetime DATETIME, updatedatetime DATETIME) ENGINE=MyISAM;
CREATE TABLE appointmentArchive (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, appointment_no INT, provider_no VARCHAR(6), appointment_date DATE, start_time TIME, end_time TIME, name VARCHAR(50), demographic_no INT, location VARCHAR(30), type VARCHAR(50), status CHAR(2), createdatetime DATETIME, updatedatetime DATETIME) ENGINE=MyISAM;
${rows('provider', 'provider_no, last_name, first_name, provider_type, status', [['101', 'Chen', 'Anne', 'doctor', '1'], ['102', 'Patel', 'Raj', 'doctor', '1']])}
${rows('demographic', 'demographic_no, last_name, first_name, phone, phone2, email, provider_no', GIVEN.slice(0, 10).map((g, i) =>
    [i + 1, FAMILY[i].toUpperCase(), g.toUpperCase(), `905-555-01${i}2`, i % 3 === 0 ? `905-555-02${i}4` : '', `${g.toLowerCase()}@example.ca`, ['101', '102'][i % 2]]))}
${rows('demographicExt', 'id, demographic_no, key_val, value, date_time', [1, 2, 3, 4, 5, 6].flatMap((i) => [[i * 2 - 1, i, 'demo_cell', `416-555-03${i}6`, `${day(-200)} 10:00:00`], [i * 2, i, 'language', 'English', `${day(-200)} 10:00:00`]]))}
${rows('site', 'site_id, name, address, city, status', [[1, 'Main Street Clinic', '120 Main St W', 'Hamilton', 1], [2, 'Lakeshore Clinic', '45 Lakeshore Rd E', 'Oakville', 1]])}
${rows('appointmentType', 'id, name, duration, notes', [[1, 'Office Visit', 15, ''], [2, 'Flu Shot', 15, ''], [3, 'Complete Physical', 45, '']])}
${rows('appointment_status', 'status, description, color, icon', [['t', 'To Do', '#FDFEC7', 'starbill.gif'], ['T', 'Daysheet Printed', '#FDFEC7', 'todo.gif'], ['H', 'Here', '#00EE00', 'here.gif'],
    ['a', 'Confirmed', '#897DF8', '1.gif'], ['b', 'Left message', '#897DF8', '2.gif'], ['N', 'No Show', '#cccccc', 'noshow.gif'], ['C', 'Canceled', '#999999', 'cancel.gif'], ['B', 'Billed', '#3ea4e1', 'billed.gif']])}
${rows('appointment', 'appointment_no, provider_no, appointment_date, start_time, end_time, name, demographic_no, location, type, status, createdatetime', apps)}
`
}

/**
 * GNU Health on PostgreSQL (Tryton): pre-made `free` slots with no patient, slots the centre
 * closed (`center_cancelled`, no patient), bookings `confirmed` (no waiting state); names of
 * patients, providers, institutions and insurers alike in `party_party` (its `code` NOT NULL
 * UNIQUE); insurance rows per patient (`name` the member, `company` the insurer); the CPF in
 * `party_identifier` rows; foreign keys declared.
 */
export function gnuHealthSix (): string {
  const apps: Cell[][] = []
  let id = 1
  for (let offset = -7; offset <= 14; offset++) {
    if (weekdayOf(offset) === 0 || weekdayOf(offset) === 6) continue
    for (let slot = 0; slot < 6; slot++) {
      const start = `${day(offset)} ${hh(11 + slot)}:00:00`
      const end = `${day(offset)} ${hh(11 + slot)}:30:00`
      const n = id
      const closed = offset === 3 && slot < 3
      const booked = !closed && n % 2 === 0
      const state = closed ? 'center_cancelled' : !booked ? 'free' : offset < 0 ? ['done', 'done', 'no_show', 'user_cancelled'][n % 4] : ['confirmed', 'confirmed', 'user_cancelled'][n % 3]
      apps.push([id++, `APP${String(n).padStart(6, '0')}`, booked ? (n % 10) + 1 : null, (n % 2) + 1, 1, 1, start, end, state, `${day(offset - 20)} 13:00:00`])
    }
  }
  const parties: Cell[][] = [...GIVEN.slice(0, 10).map((g, i) => [i + 1, g, FAMILY[i], `PAT${i + 1}`, true, false, `19${80 + i}-0${(i % 9) + 1}-15`]),
    [11, 'Renata', 'Moura', 'HP1', false, false, null], [12, 'Caio', 'Barros', 'HP2', false, false, null], [13, 'Hospital Santa Luzia', null, 'INST1', false, false, null],
    [14, 'Unimed', null, 'INS1', false, true, null], [15, 'Bradesco Saude', null, 'INS2', false, true, null]]
  return `
CREATE TABLE party_party (id SERIAL PRIMARY KEY, name VARCHAR NOT NULL, lastname VARCHAR, code VARCHAR NOT NULL UNIQUE, is_patient BOOLEAN DEFAULT false, is_insurance_company BOOLEAN DEFAULT false, dob DATE, create_date TIMESTAMP, write_date TIMESTAMP);
CREATE TABLE party_contact_mechanism (id SERIAL PRIMARY KEY, party INTEGER NOT NULL REFERENCES party_party (id), type VARCHAR NOT NULL, value VARCHAR, active BOOLEAN DEFAULT true, create_date TIMESTAMP);
CREATE TABLE party_identifier (id SERIAL PRIMARY KEY, party INTEGER NOT NULL REFERENCES party_party (id), type VARCHAR, code VARCHAR NOT NULL, create_date TIMESTAMP);
CREATE TABLE gnuhealth_specialty (id SERIAL PRIMARY KEY, code VARCHAR UNIQUE, name VARCHAR NOT NULL UNIQUE);
CREATE TABLE gnuhealth_institution (id SERIAL PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), code VARCHAR NOT NULL UNIQUE);
CREATE TABLE gnuhealth_healthprofessional (id SERIAL PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), code VARCHAR, active BOOLEAN DEFAULT true);
CREATE TABLE gnuhealth_patient (id SERIAL PRIMARY KEY, name INTEGER NOT NULL UNIQUE REFERENCES party_party (id), active BOOLEAN DEFAULT true, current_insurance INTEGER, create_date TIMESTAMP, write_date TIMESTAMP);
CREATE TABLE gnuhealth_insurance (id SERIAL PRIMARY KEY, name INTEGER NOT NULL REFERENCES party_party (id), number VARCHAR NOT NULL, company INTEGER NOT NULL REFERENCES party_party (id), insurance_type VARCHAR);
CREATE TABLE gnuhealth_appointment (id SERIAL PRIMARY KEY, name VARCHAR UNIQUE, patient INTEGER REFERENCES gnuhealth_patient (id), healthprof INTEGER REFERENCES gnuhealth_healthprofessional (id), institution INTEGER REFERENCES gnuhealth_institution (id), speciality INTEGER REFERENCES gnuhealth_specialty (id), appointment_date TIMESTAMP(0), appointment_date_end TIMESTAMP(0), state VARCHAR, create_date TIMESTAMP, write_date TIMESTAMP);
${rows('party_party', 'id, name, lastname, code, is_patient, is_insurance_company, dob', parties)}
${rows('party_contact_mechanism', 'id, party, type, value, active', [...GIVEN.slice(0, 10).flatMap((g, i) => [[i * 2 + 1, i + 1, 'mobile', `+55 11 9${8100 + i}-${2200 + i}`, true], [i * 2 + 2, i + 1, 'email', `${g.toLowerCase()}@example.com.br`, true]]),
    ...[1, 2, 3, 4].map((i) => [40 + i, i, 'fax', `+55 11 3${300 + i}-${4400 + i}`, true]), ...[1, 2].map((i) => [50 + i, i, 'mobile', `+55 11 9${7700 + i}-${1100 + i}`, false])])}
${rows('party_identifier', 'id, party, type, code', GIVEN.slice(0, 8).map((_, i) => [i + 1, i + 1, 'br_cpf', cpf(i + 20).replace(/\D/g, '')]))}
${rows('gnuhealth_specialty', 'id, code, name', [[1, 'CARD', 'Cardiologia'], [2, 'CLIN', 'Clinica Geral']])}
${rows('gnuhealth_institution', 'id, name, code', [[1, 13, 'HSL']])}
${rows('gnuhealth_healthprofessional', 'id, name, code', [[1, 11, 'CRM-1'], [2, 12, 'CRM-2']])}
${rows('gnuhealth_patient', 'id, name, current_insurance, create_date', GIVEN.slice(0, 10).map((_, i) => [i + 1, i + 1, i % 3 === 2 ? null : i + 1, `${day(-300 + i)} 09:00:00`]))}
${rows('gnuhealth_insurance', 'id, name, number, company, insurance_type', GIVEN.slice(0, 10).map((_, i) => [i + 1, i + 1, `0013405550${i}${i}`, 14 + (i % 2), 'private']))}
${rows('gnuhealth_appointment', 'id, name, patient, healthprof, institution, speciality, appointment_date, appointment_date_end, state, create_date', apps)}
SELECT setval('party_party_id_seq', 100);
SELECT setval('gnuhealth_patient_id_seq', 100);
SELECT setval('gnuhealth_appointment_id_seq', 1000);
SELECT setval('party_contact_mechanism_id_seq', 100);
SELECT setval('party_identifier_id_seq', 100);
`
}

/**
 * OpenMRS 2 with appointment scheduling on MariaDB: the appointment links a patient, a time
 * slot and a type; the slot's block names the provider and location; names in `person_name`,
 * phones (some with +254) and e-mails in `person_attribute` rows typed by number; `creator` NOT NULL DEFAULT 0
 * although its foreign key knows no user 0; empty `date_voided` and `void_reason` columns;
 * `patient.patient_id` a person's key with no foreign key declared; slots stored in UTC, the
 * first of the morning (08:00 in Nairobi) at 05:00.
 */
export function openmrsSix (): string {
  const slots: Cell[][] = []
  const apps: Cell[][] = []
  for (let b = 0; b < 10; b++) {
    for (let s = 0; s < 4; s++) {
      const id = b * 4 + s + 1
      const h = [5, 7, 9, 11][s]
      slots.push([id, b + 1, `${day(b - 3)} ${hh(h)}:00:00`, `${day(b - 3)} ${hh(h)}:30:00`, uuid(600 + id), 2, `${day(-30)} 09:00:00`])
      if (s % 2 === 0) {
        const n = apps.length
        const status = b < 3 ? ['COMPLETED', 'MISSED', 'CANCELLED'][n % 3] : ['SCHEDULED', 'SCHEDULED', 'CANCELLED', 'RESCHEDULED'][n % 4]
        apps.push([n + 1, id, (n % 8) + 1, (n % 2) + 1, status, uuid(700 + n), 2, `${day(b - 10)} 09:00:00`])
      }
    }
  }
  return `
CREATE TABLE users (user_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, system_id VARCHAR(50) NOT NULL, username VARCHAR(50), uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE person (person_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, gender VARCHAR(50) DEFAULT '', birthdate DATE, creator INT, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, date_voided DATETIME, void_reason VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE, FOREIGN KEY (creator) REFERENCES users (user_id));
CREATE TABLE person_name (person_name_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, preferred TINYINT NOT NULL DEFAULT 0, person_id INT NOT NULL, given_name VARCHAR(50), family_name VARCHAR(50), creator INT NOT NULL DEFAULT 0, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, void_reason VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE, FOREIGN KEY (person_id) REFERENCES person (person_id), FOREIGN KEY (creator) REFERENCES users (user_id));
CREATE TABLE person_attribute_type (person_attribute_type_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE person_attribute (person_attribute_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, person_id INT NOT NULL, value VARCHAR(50) NOT NULL, person_attribute_type_id INT NOT NULL, creator INT NOT NULL DEFAULT 0, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE, FOREIGN KEY (person_id) REFERENCES person (person_id), FOREIGN KEY (person_attribute_type_id) REFERENCES person_attribute_type (person_attribute_type_id), FOREIGN KEY (creator) REFERENCES users (user_id));
CREATE TABLE patient (patient_id INT NOT NULL PRIMARY KEY, creator INT NOT NULL DEFAULT 0, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, date_voided DATETIME, void_reason VARCHAR(255), FOREIGN KEY (creator) REFERENCES users (user_id));
CREATE TABLE provider (provider_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, person_id INT, name VARCHAR(255), identifier VARCHAR(255), retired TINYINT NOT NULL DEFAULT 0, retire_reason VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE, FOREIGN KEY (person_id) REFERENCES person (person_id));
CREATE TABLE location (location_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255) NOT NULL, address1 VARCHAR(255), city_village VARCHAR(255), retired TINYINT NOT NULL DEFAULT 0, retire_reason VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_type (appointment_type_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(255) NOT NULL, description VARCHAR(1024), duration INT NOT NULL, retired TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_block (appointment_block_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, start_date DATETIME NOT NULL, end_date DATETIME NOT NULL, provider_id INT, location_id INT NOT NULL, creator INT NOT NULL, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, void_reason VARCHAR(255), uuid CHAR(38) NOT NULL UNIQUE, FOREIGN KEY (provider_id) REFERENCES provider (provider_id), FOREIGN KEY (location_id) REFERENCES location (location_id));
CREATE TABLE appointmentscheduling_time_slot (time_slot_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, appointment_block_id INT NOT NULL, start_date DATETIME NOT NULL, end_date DATETIME NOT NULL, uuid CHAR(38) NOT NULL UNIQUE, creator INT NOT NULL, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, date_voided DATETIME, void_reason VARCHAR(255), FOREIGN KEY (appointment_block_id) REFERENCES appointmentscheduling_appointment_block (appointment_block_id));
CREATE TABLE appointmentscheduling_appointment (appointment_id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, time_slot_id INT NOT NULL, patient_id INT NOT NULL, appointment_type_id INT NOT NULL, status VARCHAR(255) NOT NULL, reason VARCHAR(1024), cancel_reason VARCHAR(1024), uuid CHAR(38) NOT NULL UNIQUE, creator INT NOT NULL, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, date_voided DATETIME, void_reason VARCHAR(255), FOREIGN KEY (time_slot_id) REFERENCES appointmentscheduling_time_slot (time_slot_id), FOREIGN KEY (patient_id) REFERENCES patient (patient_id), FOREIGN KEY (appointment_type_id) REFERENCES appointmentscheduling_appointment_type (appointment_type_id));
${rows('users', 'user_id, system_id, username, uuid', [[1, 'admin', 'admin', uuid(1)], [2, 'clerk', 'clerk', uuid(2)]])}
${rows('person', 'person_id, gender, birthdate, creator, date_created, uuid', [...Array(10).keys()].map((i) => [i + 1, i % 2 ? 'M' : 'F', `19${75 + i}-0${(i % 9) + 1}-1${i % 9}`, 2, `${day(-400 + i)} 09:00:00`, uuid(10 + i)]))}
${rows('person_name', 'person_name_id, preferred, person_id, given_name, family_name, creator, date_created, uuid', [...Array(10).keys()].map((i) =>
    [i + 1, 1, i + 1, ['Amina', 'Kofi', 'Wanjiru', 'Baraka', 'Zawadi', 'Juma', 'Neema', 'Otieno', 'Achieng', 'Mutua'][i], ['Mwangi', 'Otieno', 'Kamau', 'Njoroge', 'Achieng', 'Mutua', 'Wekesa', 'Odhiambo', 'Wanjala', 'Kiprono'][i], 2, `${day(-400 + i)} 09:00:00`, uuid(100 + i)]))}
${rows('person_attribute_type', 'person_attribute_type_id, name, uuid', [[8, 'Telephone Number', uuid(801)], [10, 'Email', uuid(802)]])}
${rows('person_attribute', 'person_attribute_id, person_id, value, person_attribute_type_id, creator, date_created, uuid', [...Array(8).keys()].flatMap((i) =>
    [[i * 2 + 1, i + 1, i % 3 === 0 ? `+254 7${11 + i} ${200 + i}${300 + i}` : `07${11 + i} ${200 + i} ${300 + i}`, 8, 2, `${day(-300)} 09:00:00`, uuid(900 + i * 2)], [i * 2 + 2, i + 1, `p${i}@example.co.ke`, 10, 2, `${day(-300)} 09:00:00`, uuid(901 + i * 2)]]))}
${rows('patient', 'patient_id, creator, date_created', [...Array(8).keys()].map((i) => [i + 1, 2, `${day(-400 + i)} 09:00:00`]))}
${rows('provider', 'provider_id, person_id, name, identifier, uuid', [[1, 9, 'Achieng Wanjala', 'PRV-1', uuid(201)], [2, 10, 'Mutua Kiprono', 'PRV-2', uuid(202)]])}
${rows('location', 'location_id, name, address1, city_village, uuid', [[1, 'Outpatient Clinic', 'Moi Avenue 12', 'Eldoret', uuid(301)], [2, 'Maternity Ward', 'Moi Avenue 12', 'Eldoret', uuid(302)]])}
${rows('appointmentscheduling_appointment_type', 'appointment_type_id, name, description, duration, uuid', [[1, 'General Consultation', 'A first visit', 30, uuid(401)], [2, 'Antenatal Visit', 'Pregnancy follow-up', 30, uuid(402)]])}
${rows('appointmentscheduling_appointment_block', 'appointment_block_id, start_date, end_date, provider_id, location_id, creator, date_created, uuid', [...Array(10).keys()].map((b) =>
    [b + 1, `${day(b - 3)} 08:00:00`, `${day(b - 3)} 12:00:00`, (b % 2) + 1, (b % 2) + 1, 2, `${day(-30)} 09:00:00`, uuid(500 + b)]))}
${rows('appointmentscheduling_time_slot', 'time_slot_id, appointment_block_id, start_date, end_date, uuid, creator, date_created', slots)}
${rows('appointmentscheduling_appointment', 'appointment_id, time_slot_id, patient_id, appointment_type_id, status, uuid, creator, date_created', apps)}
`
}

/**
 * A Delphi-era Brazilian agenda on SQLite: upper-case Portuguese names joined run together
 * (`CODMEDICO`, `CODPACIENTE`), no declared keys, `DD/MM/YYYY` text dates, one-letter status
 * codes no table names (`M` the column's default), weekdays numbered as Delphi's DayOfWeek
 * (Sunday 1), holidays and blocks in their own tables.
 */
export function agendaSix (): string {
  // Weekdays each doctor works, Delphi-numbered: 1 Sunday … 7 Saturday.
  const works: Record<number, number[]> = { 1: [2, 3, 4, 5, 6], 2: [2, 4, 6, 7], 3: [3, 5] }
  const hours = Object.entries(works).flatMap(([med, days]) => days.map((d) => [Number(med), d]))
  const agenda: Cell[][] = []
  let n = 1
  for (let offset = -14; offset <= 14; offset++) {
    const delphi = weekdayOf(offset) + 1
    for (const [med, days] of Object.entries(works)) {
      if (!days.includes(delphi)) continue
      for (const h of [8, 9, 10]) {
        if ((n + h) % 3 === 0) { n++; continue }
        const st = offset < 0 ? ['A', 'A', 'F', 'D'][n % 4] : ['M', 'M', 'C', 'D'][n % 4]
        agenda.push([n, dmy(offset), `${hh(h)}:00`, `${hh(h)}:20`, Number(med), (n % 10) + 1, (n % 3) + 1, 1, Number(med), st, `${dmy(offset - 10)} 09:00:00`])
        n++
      }
    }
  }
  return `
CREATE TABLE CONVENIOS (CODIGO INTEGER PRIMARY KEY, NOME VARCHAR(40) NOT NULL, ATIVO CHAR(1) DEFAULT 'S');
CREATE TABLE ESPECIALIDADES (CODIGO INTEGER PRIMARY KEY, DESCRICAO VARCHAR(40) NOT NULL, CBO VARCHAR(8));
CREATE TABLE SALAS (CODIGO INTEGER PRIMARY KEY, DESCRICAO VARCHAR(30) NOT NULL);
CREATE TABLE MEDICOS (CODIGO INTEGER PRIMARY KEY, NOME VARCHAR(50) NOT NULL, CRM VARCHAR(15), CODESPEC INTEGER, ATIVO CHAR(1) DEFAULT 'S');
CREATE TABLE PROCEDIMENTOS (CODIGO INTEGER PRIMARY KEY, DESCRICAO VARCHAR(50) NOT NULL, VALOR NUMERIC(9,2), DURACAO INTEGER);
CREATE TABLE PACIENTES (CODIGO INTEGER PRIMARY KEY, NOME VARCHAR(60) NOT NULL, CPF VARCHAR(14), DTNASC CHAR(10), FONE VARCHAR(15), CELULAR VARCHAR(16), EMAIL VARCHAR(60), CODCONVENIO INTEGER, DTCADASTRO CHAR(10));
CREATE TABLE HORARIOS (CODIGO INTEGER PRIMARY KEY, CODMEDICO INTEGER NOT NULL, DIASEMANA INTEGER NOT NULL, HORAINI CHAR(5) NOT NULL, HORAFIM CHAR(5) NOT NULL, INTERVALO INTEGER NOT NULL, CODSALA INTEGER, VALIDADEINI CHAR(10), VALIDADEFIM CHAR(10));
CREATE TABLE FERIADOS (DATA CHAR(10) NOT NULL, DESCRICAO VARCHAR(40), FIXO CHAR(1) DEFAULT 'N');
CREATE TABLE BLOQUEIOS (CODIGO INTEGER PRIMARY KEY, CODMEDICO INTEGER, DATA CHAR(10) NOT NULL, HORAINI CHAR(5), HORAFIM CHAR(5), MOTIVO VARCHAR(60));
CREATE TABLE AGENDA (CODIGO INTEGER PRIMARY KEY, DATA CHAR(10) NOT NULL, HORA CHAR(5) NOT NULL, HORAFIM CHAR(5), CODMEDICO INTEGER NOT NULL, CODPACIENTE INTEGER, CODCONVENIO INTEGER, CODPROCEDIMENTO INTEGER, CODSALA INTEGER, STATUS CHAR(1) DEFAULT 'M', DTHRMARCACAO CHAR(19));
CREATE TABLE GERADOR (TABELA VARCHAR(30) PRIMARY KEY, ULTIMO INTEGER);
${rows('CONVENIOS', 'CODIGO, NOME', [[1, 'PARTICULAR'], [2, 'UNIMED PAULISTANA'], [3, 'BRADESCO SAUDE']])}
${rows('ESPECIALIDADES', 'CODIGO, DESCRICAO, CBO', [[1, 'CLINICA MEDICA', '225125'], [2, 'PEDIATRIA', '225124'], [3, 'CARDIOLOGIA', '225120']])}
${rows('SALAS', 'CODIGO, DESCRICAO', [[1, 'CONSULTORIO 1'], [2, 'CONSULTORIO 2'], [3, 'SALA DE ECG']])}
${rows('MEDICOS', 'CODIGO, NOME, CRM, CODESPEC', [[1, 'DR. JOSE CARLOS PEREIRA', '54321', 1], [2, 'DRA. ANA PAULA SOUZA', '87654', 2], [3, 'DR. ROBERTO ALMEIDA', '112233', 3]])}
${rows('PROCEDIMENTOS', 'CODIGO, DESCRICAO, VALOR, DURACAO', [[1, 'CONSULTA EM CONSULTORIO', 250, 20], [2, 'RETORNO', 0, 15], [3, 'ELETROCARDIOGRAMA', 120.5, 30]])}
${rows('PACIENTES', 'CODIGO, NOME, CPF, DTNASC, FONE, CELULAR, EMAIL, CODCONVENIO, DTCADASTRO', GIVEN.slice(0, 10).map((g, i) =>
    [i + 1, `${g.toUpperCase()} ${FAMILY[i].toUpperCase()}`, cpf(i + 40), `1${i}/0${(i % 9) + 1}/19${70 + i}`, `(11) 3${100 + i}-${4000 + i}`, `(11) 9${8200 + i}-${5000 + i}`, `${g.toLowerCase()}@example.com.br`, (i % 3) + 1, dmy(-300)]))}
${rows('HORARIOS', 'CODIGO, CODMEDICO, DIASEMANA, HORAINI, HORAFIM, INTERVALO, CODSALA, VALIDADEINI, VALIDADEFIM', hours.map(([med, d], i) => [i + 1, med, d, '08:00', '12:00', 20, med, '01/01/2020', null]))}
${rows('FERIADOS', 'DATA, DESCRICAO, FIXO', [['25/12/2000', 'NATAL', 'S'], [dmy(20), 'RECESSO CLINICA', 'N']])}
${rows('BLOQUEIOS', 'CODIGO, CODMEDICO, DATA, HORAINI, HORAFIM, MOTIVO', [[1, 1, dmy(9), '08:00', '10:00', 'CONGRESSO'], [2, null, dmy(11), '10:00', '12:00', 'DEDETIZACAO']])}
${rows('AGENDA', 'CODIGO, DATA, HORA, HORAFIM, CODMEDICO, CODPACIENTE, CODCONVENIO, CODPROCEDIMENTO, CODSALA, STATUS, DTHRMARCACAO', agenda)}
${rows('GERADOR', 'TABELA, ULTIMO', [['AGENDA', n], ['PACIENTES', 10]])}
`
}
