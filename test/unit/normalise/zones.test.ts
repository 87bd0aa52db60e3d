// Wall clocks of two zones (mapping `storedIn`): the same instant on each, across DST changes
// both ways, the hours a change skips or repeats, and what is not a date-time.
import t from 'tap'
import { isTimeZone, naiveDatetime, shiftWallClock, skippedOnWallClock } from '../../../src/normalise/zones.js'

t.test('an instant on two clocks', async (t) => {
  t.equal(shiftWallClock('2031-03-11 02:30:00', 'UTC', 'America/Sao_Paulo'), '2031-03-10 23:30:00', 'a UTC date one day on from the clinic\'s')
  t.equal(shiftWallClock('2031-03-10 23:30', 'America/Sao_Paulo', 'UTC'), '2031-03-11 02:30:00', 'and back; seconds optional')
  t.equal(shiftWallClock('2031-03-10T09:00:00.250', 'UTC', 'Asia/Kolkata'), '2031-03-10 14:30:00', 'a T and fractions read; half-hour offsets')
  t.equal(shiftWallClock('2031-07-01 12:00:00', 'Europe/Lisbon', 'America/New_York'), '2031-07-01 07:00:00', 'two zones, neither UTC')
})

t.test('DST: New York springs forward on 2031-03-09 and falls back on 2031-11-02', async (t) => {
  t.equal(shiftWallClock('2031-03-09 06:59:00', 'UTC', 'America/New_York'), '2031-03-09 01:59:00', 'EST before the change')
  t.equal(shiftWallClock('2031-03-09 07:00:00', 'UTC', 'America/New_York'), '2031-03-09 03:00:00', 'EDT from it: 02:00–03:00 never shows')
  t.equal(shiftWallClock('2031-03-09 02:30:00', 'America/New_York', 'UTC'), '2031-03-09 07:30:00', 'a skipped hour is written as the hour after the gap (03:30 EDT)')
  t.equal(shiftWallClock('2031-11-02 05:30:00', 'UTC', 'America/New_York'), '2031-11-02 01:30:00', 'the first 01:30 (EDT)')
  t.equal(shiftWallClock('2031-11-02 06:30:00', 'UTC', 'America/New_York'), '2031-11-02 01:30:00', 'the second 01:30 (EST)')
  t.equal(shiftWallClock('2031-11-02 01:30:00', 'America/New_York', 'UTC'), '2031-11-02 05:30:00', 'a repeated hour is written as its first occurrence')
  t.equal(shiftWallClock('2031-03-30 01:30:00', 'Europe/Lisbon', 'UTC'), '2031-03-30 01:30:00', 'Lisbon\'s skipped 01:00–02:00 lands after the gap (02:30 WEST)')
  t.equal(shiftWallClock('2031-10-26 00:30:00', 'UTC', 'Europe/Lisbon'), '2031-10-26 01:30:00', 'WEST before Lisbon falls back')
  t.equal(shiftWallClock('2031-10-26 01:30:00', 'UTC', 'Europe/Lisbon'), '2031-10-26 01:30:00', 'WET after')
})

t.test('the wall times a zone skips: Chicago springs forward on 2027-03-14, falls back on 2027-11-07', async (t) => {
  const skipped = (naive: string, zone = 'America/Chicago'): boolean => skippedOnWallClock(naive, zone)
  t.notOk(skipped('2027-03-14 01:59'), 'CST up to the change')
  t.ok(skipped('2027-03-14 02:00') && skipped('2027-03-14 02:30:00') && skipped('2027-03-14 02:59:59'), '02:00–03:00 never shows')
  t.notOk(skipped('2027-03-14 03:00'), 'CDT from 03:00')
  t.notOk(skipped('2027-03-13 02:30'), 'the day before shows it')
  t.notOk(skipped('2027-11-07 01:30'), 'a repeated wall time shows (twice)')
  t.ok(skipped('2031-03-30 01:30', 'Europe/Lisbon'), 'Lisbon skips 01:00–02:00')
  t.notOk(skipped('2031-03-09 02:30', 'America/Sao_Paulo'), 'a zone without DST skips nothing')
  t.notOk(skipped('2027-03-14 02:30', 'UTC'))
  t.notOk(skipped('soon'), 'what is not a date-time is not skipped')
})

t.test('what is not a date-time, or leaves the years 1–9999', async (t) => {
  for (const bad of ['', '2031-02-30 10:00:00', '2031-03-10 24:00', '10/03/2031 09:00', 'soon']) {
    t.equal(shiftWallClock(bad, 'UTC', 'America/Sao_Paulo'), undefined, JSON.stringify(bad))
  }
  t.equal(shiftWallClock('9999-12-31 23:00:00', 'America/Sao_Paulo', 'UTC'), undefined, 'no year 10000')
  t.equal(naiveDatetime(new Date(2031, 2, 10, 9, 5, 7)), '2031-03-10 09:05:07', 'a Date by its local fields, as mssql gives them')
  t.equal(naiveDatetime(new Date(NaN)), undefined)
  t.equal(naiveDatetime(' 2031-03-10 09:05 '), '2031-03-10 09:05')
  t.equal(naiveDatetime(20310310), undefined)
  t.ok(isTimeZone('UTC') && isTimeZone('America/Sao_Paulo'))
  t.notOk(isTimeZone('Mars/Olympus_Mons'))
  t.notOk(isTimeZone(''))
})
