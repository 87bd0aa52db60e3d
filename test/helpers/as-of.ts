// A physiotherapy practice whose members hold payer coverages that take effect on a date
// (`coverage.starts_on`, NULL: always), ranked `main` or `extra`: the appointment's payer is
// the member's `main` coverage in force on the session's day. Unlike the samples: members,
// therapists, sessions with a day and an `HH:MM` text, coverage rows per member. Portable SQL
// for `scratchOn`.
export const DAY = '2031-03-03' // a Monday

export const AS_OF_SCHEMA = `
CREATE TABLE member (member_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, mobile VARCHAR(20));
INSERT INTO member (member_no, full_name, mobile) VALUES (1, 'Ana Souza', '11987650001');
INSERT INTO member (member_no, full_name, mobile) VALUES (2, 'Bruno Lima', '11987650002');
INSERT INTO member (member_no, full_name, mobile) VALUES (3, 'Clara Reis', '11987650003');
CREATE TABLE payer (payer_id INTEGER PRIMARY KEY, payer_name VARCHAR(40) NOT NULL);
INSERT INTO payer (payer_id, payer_name) VALUES (10, 'Vida Saude');
INSERT INTO payer (payer_id, payer_name) VALUES (20, 'Bem Estar');
INSERT INTO payer (payer_id, payer_name) VALUES (30, 'Mais Plano');
CREATE TABLE coverage (cov_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, rank_code VARCHAR(10) NOT NULL, starts_on DATE, payer_id INTEGER NOT NULL);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (1, 1, 'main', '2030-01-01', 10);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (2, 1, 'main', '2031-03-10', 20);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (3, 1, 'extra', '2031-01-01', 30);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (4, 2, 'main', NULL, 10);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (5, 2, 'main', '2031-03-05', 30);
INSERT INTO coverage (cov_id, member_no, rank_code, starts_on, payer_id) VALUES (6, 3, 'main', '2031-06-01', 20);
CREATE INDEX coverage_member ON coverage (member_no, starts_on);
CREATE TABLE therapist (therapist_id INTEGER PRIMARY KEY, therapist_name VARCHAR(60) NOT NULL);
INSERT INTO therapist (therapist_id, therapist_name) VALUES (1, 'Dra Vera Prado');
CREATE TABLE therapist_week (therapist_id INTEGER NOT NULL, weekday INTEGER NOT NULL, from_hm VARCHAR(5) NOT NULL, to_hm VARCHAR(5) NOT NULL);
${[0, 1, 2, 3, 4, 5, 6].map((d) => `INSERT INTO therapist_week (therapist_id, weekday, from_hm, to_hm) VALUES (1, ${d}, '08:00', '12:00');`).join('\n')}
CREATE TABLE session (sess_id INTEGER PRIMARY KEY, member_no INTEGER NOT NULL, therapist_id INTEGER NOT NULL, sess_day DATE NOT NULL, sess_hm VARCHAR(5) NOT NULL, flag CHAR(1) NOT NULL);
INSERT INTO session (sess_id, member_no, therapist_id, sess_day, sess_hm, flag) VALUES (1, 1, 1, '2031-03-03', '08:00', 'w');
INSERT INTO session (sess_id, member_no, therapist_id, sess_day, sess_hm, flag) VALUES (2, 1, 1, '2031-03-10', '08:00', 'w');
INSERT INTO session (sess_id, member_no, therapist_id, sess_day, sess_hm, flag) VALUES (3, 2, 1, '2031-03-03', '08:30', 'w');
INSERT INTO session (sess_id, member_no, therapist_id, sess_day, sess_hm, flag) VALUES (4, 2, 1, '2031-03-05', '08:30', 'w');
INSERT INTO session (sess_id, member_no, therapist_id, sess_day, sess_hm, flag) VALUES (5, 3, 1, '2031-03-03', '09:00', 'w');
`

/** The mapping; `asOf` the join's `asOf` entry (empty: the latest main coverage whatever the day). */
export function asOfMapping (asOf = ', asOf: { column: starts_on, notAfter: sess_day }'): string {
  return `version: 1
installation: as-of-coverage
timezone: America/Sao_Paulo
cache: { ttlSeconds: 3600 }
states:
  values: [WAITING, CANCELED]
resources:
  appointment:
    table: session
    key: sess_id
    joins:
      cov:
        table: coverage
        on: { member_no: member_no }
        where: { column: rank_code, eq: main }
        first: { key: cov_id, by: [{ column: starts_on, desc: true }]${asOf} }
    start:
      date: { column: sess_day, format: date }
      hour: { column: sess_hm, format: text }
    state: { column: flag, map: { w: WAITING, x: CANCELED } }
    refs:
      client: member_no
      professional: therapist_id
      healthInsurance: cov.payer_id
    write:
      key: { generate: max }
      ignore: [healthInsurance]
  client:
    table: member
    key: member_no
    fields:
      name: full_name
    phones: [mobile]
  professional:
    table: therapist
    key: therapist_id
    fields: { name: therapist_name }
  healthInsurance:
    table: payer
    key: payer_id
    fields: { name: payer_name }
availability:
  slotMinutes: 30
  weekly:
    table: therapist_week
    professional: therapist_id
    weekday: weekday
    start: { column: from_hm, format: text }
    end: { column: to_hm, format: text }
`
}
