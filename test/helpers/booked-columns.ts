// A pediatric dental practice's schema for `{ service: { column } }` (docs/mapping.md), unlike
// the samples: each visit kind keeps its own chair-time pattern (`slots`, one character per 5
// minutes, `/` assistant time, `X` the dentist's) and chair, each dentist a calendar tint. A
// booking copies the kind's pattern into the visit's `slots` (which is also the visit's length),
// its chair, and the dentist's tint. SQL for `scratchOn`; the mapping is also compiled for SQL
// Server by test/language/booked-columns-golden.test.ts.

// 2031-05-06 is a Tuesday.
export const DAY = '2031-05-06'

/** [kind_no, title, slots, chair]: Sealants' pattern is not what the length converter writes for 40 minutes. */
export const KINDS: Array<[number, string, string | null, number | null]> = [
  [1, 'Checkup', '/XX/', 3],
  [2, 'Sealants', '//XXXX//', 4],
  [3, 'Consult', null, null]
]

const q = (v: string | number | null): string => v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v}'`

export const SCHEMA = `
CREATE TABLE dentist (dentist_no INTEGER PRIMARY KEY, label VARCHAR(30) NOT NULL, tint VARCHAR(7));
CREATE TABLE child (child_no INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE visit_kind (kind_no INTEGER PRIMARY KEY, title VARCHAR(40) NOT NULL, slots VARCHAR(24), chair INTEGER);
CREATE TABLE roster (roster_no INTEGER PRIMARY KEY, on_day DATE NOT NULL, from_hour VARCHAR(5) NOT NULL, to_hour VARCHAR(5) NOT NULL, dentist_no INTEGER NOT NULL);
CREATE TABLE visit (visit_no INTEGER PRIMARY KEY, child_no INTEGER NOT NULL, dentist_no INTEGER, kind_no INTEGER, visit_day DATE NOT NULL, visit_hour VARCHAR(5) NOT NULL, slots VARCHAR(24) NOT NULL, status INTEGER NOT NULL, chair INTEGER NOT NULL, tint VARCHAR(7));
INSERT INTO dentist (dentist_no, label, tint) VALUES (1, 'Dr. Park', '#3366cc');
INSERT INTO dentist (dentist_no, label, tint) VALUES (2, 'Dr. Ruiz', NULL);
INSERT INTO child (child_no, first_name, last_name) VALUES (1, 'Noah', 'Begay');
INSERT INTO child (child_no, first_name, last_name) VALUES (2, 'Lily', 'Tsosie');
${KINDS.map((k) => `INSERT INTO visit_kind (kind_no, title, slots, chair) VALUES (${k.map(q).join(', ')});`).join('\n')}
INSERT INTO roster (roster_no, on_day, from_hour, to_hour, dentist_no) VALUES (1, '${DAY}', '08:00', '17:00', 1);
INSERT INTO roster (roster_no, on_day, from_hour, to_hour, dentist_no) VALUES (2, '${DAY}', '08:00', '17:00', 2);
`

export const MAPPING = `version: 1
installation: booked-columns
timezone: America/Denver
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED] }
resources:
  appointment:
    table: visit
    key: visit_no
    start:
      date: { column: visit_day, format: date }
      hour: { column: visit_hour, format: text }
    end:
      duration: { column: slots, pattern: { per: 5, repeat: X, edges: '/' } }
    state: { column: status, type: int, map: { '1': WAITING, '2': CONFIRMED, '5': CANCELED } }
    refs: { client: child_no, professional: dentist_no, service: kind_no }
    write:
      key: { generate: max }
      set:
        slots: { service: { column: slots } }
        chair: { service: { column: chair }, otherwise: 0 }
        tint: { professional: { column: tint } }
  client:
    table: child
    key: child_no
    fields: { name: { template: '{first_name} {last_name}' } }
    write: { key: { generate: max } }
  professional:
    table: dentist
    key: dentist_no
    fields: { name: label }
  service:
    table: visit_kind
    key: kind_no
    fields:
      name: title
      duration: { column: slots, pattern: { per: 5 } }
availability:
  slotMinutes: 10
  dated:
    table: roster
    professional: dentist_no
    date: { column: on_day, format: date }
    start: { column: from_hour, format: text }
    end: { column: to_hour, format: text }
`
