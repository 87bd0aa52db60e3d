// A veterinary practice whose visit rows require a visit type (`type_id NOT NULL`) while
// callers book with the vet only: the schema for `write.refs.service.otherwise`. Unlike the
// samples: tutors (pet owners), a type table with its own minutes, hours per weekday, a
// stored end. Portable SQL for `scratchOn`.
export const DAY = '2031-03-03' // a Monday

export const VISIT_TYPE_SCHEMA = `
CREATE TABLE tutor (tutor_id INTEGER PRIMARY KEY, tutor_name VARCHAR(60) NOT NULL, phone VARCHAR(20));
INSERT INTO tutor (tutor_id, tutor_name, phone) VALUES (1, 'Ana Souza', '11987650001');
INSERT INTO tutor (tutor_id, tutor_name, phone) VALUES (2, 'Bruno Lima', '11987650002');
CREATE TABLE vet (vet_id INTEGER PRIMARY KEY, vet_name VARCHAR(60) NOT NULL);
INSERT INTO vet (vet_id, vet_name) VALUES (1, 'Dra Vera Prado');
CREATE TABLE visit_type (type_id INTEGER PRIMARY KEY, label VARCHAR(40) NOT NULL, minutes INTEGER NOT NULL);
INSERT INTO visit_type (type_id, label, minutes) VALUES (3, 'Vacina', 15);
INSERT INTO visit_type (type_id, label, minutes) VALUES (4, 'Consulta', 45);
CREATE TABLE vet_week (vet_id INTEGER NOT NULL, weekday INTEGER NOT NULL, from_hm VARCHAR(5) NOT NULL, to_hm VARCHAR(5) NOT NULL);
${[0, 1, 2, 3, 4, 5, 6].map((d) => `INSERT INTO vet_week (vet_id, weekday, from_hm, to_hm) VALUES (1, ${d}, '08:00', '12:00');`).join('\n')}
CREATE TABLE visit (visit_id INTEGER PRIMARY KEY, vet_id INTEGER NOT NULL, tutor_id INTEGER NOT NULL, type_id INTEGER NOT NULL, visit_day DATE NOT NULL, start_hm VARCHAR(5) NOT NULL, end_hm VARCHAR(5) NOT NULL, status CHAR(1) NOT NULL);
`

/** The mapping; `refsLine` the appointment's `write.refs` entry (none: no default). */
export function visitTypeMapping (refsLine = '      refs: { service: { otherwise: 4 } }'): string {
  return `version: 1
installation: vet-visit-type
timezone: America/Sao_Paulo
cache: { ttlSeconds: 3600 }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: visit
    key: visit_id
    start:
      date: { column: visit_day, format: date }
      hour: { column: start_hm, format: text }
    end: { hour: { column: end_hm, format: text } }
    state: { column: status, map: { w: WAITING, c: CONFIRMED, x: CANCELED } }
    refs:
      client: tutor_id
      professional: vet_id
      service: type_id
    write:
      key: { generate: max }
      set:
        end_hm: { slot: end, format: text }
${refsLine}
  client:
    table: tutor
    key: tutor_id
    fields:
      name: tutor_name
    phones: [phone]
    write:
      key: { generate: max }
  professional:
    table: vet
    key: vet_id
    fields: { name: vet_name }
  service:
    table: visit_type
    key: type_id
    fields: { name: label, duration: minutes }
availability:
  slotMinutes: 15
  weekly:
    table: vet_week
    professional: vet_id
    weekday: weekday
    start: { column: from_hm, format: text }
    end: { column: to_hm, format: text }
`
}
