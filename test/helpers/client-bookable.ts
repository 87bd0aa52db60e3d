// A physiotherapy practice's charts generated for the tests of `resources.client.bookable`,
// unlike the samples: a two-letter standing code (IN inactive, DE deceased, AC or NULL
// active), the inactive and the deceased patients holding sessions of their own, and the
// first charts being the ones that may not be booked. Used by test/language/client-bookable*.test.ts.

export const DAY = '2031-03-04'

export const SCHEMA = `
CREATE TABLE chart (chart_no INTEGER PRIMARY KEY, surname VARCHAR(40) NOT NULL, mobile VARCHAR(20), standing CHAR(2));
CREATE TABLE therapist (th_no INTEGER PRIMARY KEY, th_name VARCHAR(40) NOT NULL);
CREATE TABLE session_book (sess_no INTEGER PRIMARY KEY, chart_no INTEGER NOT NULL, th_no INTEGER NOT NULL, sess_day DATE NOT NULL, sess_hm VARCHAR(5) NOT NULL, flag CHAR(1) NOT NULL);
INSERT INTO chart (chart_no, surname, mobile, standing) VALUES (1, 'Bruno Lima', '11987650201', 'IN');
INSERT INTO chart (chart_no, surname, mobile, standing) VALUES (2, 'Carla Dias', '11987650202', 'DE');
INSERT INTO chart (chart_no, surname, mobile, standing) VALUES (3, 'Ana Souza', '11987650203', 'AC');
INSERT INTO chart (chart_no, surname, mobile, standing) VALUES (4, 'Davi Reis', '11987650204', NULL);
INSERT INTO therapist (th_no, th_name) VALUES (7, 'Dra. Nara Dias');
INSERT INTO session_book (sess_no, chart_no, th_no, sess_day, sess_hm, flag) VALUES (100, 1, 7, '${DAY}', '09:00', 'A');
INSERT INTO session_book (sess_no, chart_no, th_no, sess_day, sess_hm, flag) VALUES (101, 2, 7, '${DAY}', '10:00', 'C');
`

export const BOOKABLE = '    bookable: { column: standing, notIn: [IN, DE] }'

export function physioMapping (bookableLine = BOOKABLE): string {
  return `version: 1
installation: physio-standing
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [phone, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: session_book
    key: sess_no
    start:
      date: { column: sess_day, format: date }
      hour: { column: sess_hm, format: text }
    state: { column: flag, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs:
      client: chart_no
      professional: th_no
    write:
      key: { generate: max }
  client:
    table: chart
    key: chart_no
${bookableLine}
    fields: { name: surname }
    phones: [mobile]
    write:
      key: { generate: max }
      phoneFormat: digits
  professional:
    table: therapist
    key: th_no
    fields: { name: th_name }
`
}
