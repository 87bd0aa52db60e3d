import t from 'tap';
import {
  nowIn,
  addMinutes,
  daysBetween,
  isCalendarDate,
  isClockHour,
  nowHourIn,
  parseApiDate,
  readDate,
  readHour,
  todayIn,
  toStoredDate,
  toStoredHour,
} from '../../src/normalise/datetime.js';

const SP = 'America/Sao_Paulo';

t.test('readDate: Date objects are read by their local (wall-clock) fields', async (t) => {
  t.equal(readDate(new Date(2026, 2, 15), 'date'), '2026-03-15');
  // Late evening local: going through toISOString() would give the next day east of UTC
  // and the previous day west of it for early-morning values.
  t.equal(readDate(new Date(2026, 2, 15, 23, 59, 59), 'datetime'), '2026-03-15');
  t.equal(readDate(new Date(2026, 2, 15, 0, 0, 1), 'datetime'), '2026-03-15');
  t.equal(readDate(new Date(Number.NaN), 'date'), undefined);
});

t.test('readDate: text spellings', async (t) => {
  t.equal(readDate('2026-03-15', 'date'), '2026-03-15');
  t.equal(readDate('2026-03-15 14:30', 'datetime'), '2026-03-15');
  t.equal(readDate('2026-03-15 14:30:00', 'datetime'), '2026-03-15');
  t.equal(readDate('2026-03-15 14:30:00.000', 'datetime'), '2026-03-15');
  t.equal(readDate('2026-03-15T14:30', 'datetime'), '2026-03-15');
  t.equal(readDate('2026-03-15T14:30:00.123', 'text'), '2026-03-15');
  t.equal(readDate('15/03/2026', 'text'), '2026-03-15');
  t.equal(readDate(' 5/3/2026 ', 'text'), '2026-03-05');
  t.equal(readDate('15/03/2026 14:30', 'text'), '2026-03-15');
  t.equal(readDate('15.03.2026', 'text'), '2026-03-15');
  t.equal(readDate('20260315', 'text'), '2026-03-15');
});

t.test('readDate: int columns', async (t) => {
  t.equal(readDate(20260315, 'int'), '2026-03-15');
  t.equal(readDate(20260315n, 'int'), '2026-03-15');
  t.equal(readDate('20260315', 'int'), '2026-03-15');
  t.equal(readDate(2026031, 'int'), undefined, '7 digits');
  t.equal(readDate(20261315, 'int'), undefined, 'month 13');
  t.equal(readDate(20260315.5, 'int'), undefined);
  t.equal(readDate(20260315, 'date'), undefined, 'numbers only in int columns');
});

t.test('readDate: sentinels are no date', async (t) => {
  for (const raw of ['0000-00-00', '0001-01-01', '1900-01-01', '1899-12-30', '1900-01-01 00:00:00', '', '   ']) {
    t.equal(readDate(raw, 'datetime'), undefined, raw);
  }
  t.equal(readDate(0, 'int'), undefined);
  t.equal(readDate(19000101, 'int'), undefined);
  t.equal(readDate(new Date(1900, 0, 1), 'datetime'), undefined);
  t.equal(readDate(new Date(1899, 11, 30), 'datetime'), undefined);
  t.equal(readDate(null, 'date'), undefined);
  t.equal(readDate(undefined, 'date'), undefined);
  t.equal(readDate('1900-01-02', 'date'), '1900-01-02', 'first real day');
});

t.test('readDate: impossible calendar dates', async (t) => {
  for (const raw of ['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '31/04/2026', '29/02/2100']) {
    t.equal(readDate(raw, 'text'), undefined, raw);
  }
  t.equal(readDate('2024-02-29', 'text'), '2024-02-29', 'leap year');
  t.equal(readDate('29/02/2000', 'text'), '2000-02-29', 'leap century');
  t.equal(readDate('ontem', 'text'), undefined);
  t.equal(readDate('2026-3-15', 'text'), undefined);
});

t.test('readHour: text', async (t) => {
  const cases: Array<[string, string]> = [
    ['9:30', '09:30'],
    ['09:30', '09:30'],
    ['09:30:00', '09:30'],
    ['09:30:59.999', '09:30'],
    [' 9h30 ', '09:30'],
    ['9H30', '09:30'],
    ['14h', '14:00'],
    ['0930', '09:30'],
    ['930', '09:30'],
    ['1330', '13:30'],
    ['0000', '00:00'],
    ['23:59', '23:59'],
  ];
  for (const [raw, hour] of cases) t.equal(readHour(raw, 'text'), hour, raw);
  for (const raw of ['24:00', '9:60', '09:30:60', '2400', '9:', '9:3', '', 'manhã', '-1:00', '12345']) {
    t.equal(readHour(raw, 'text'), undefined, raw);
  }
  t.equal(readHour(930, 'text'), undefined, 'numbers are hhmm or minutes columns');
});

t.test('readHour: time and datetime columns', async (t) => {
  t.equal(readHour(new Date(1970, 0, 1, 9, 30, 45), 'time'), '09:30');
  t.equal(readHour(new Date(2026, 2, 15, 23, 5), 'datetime'), '23:05');
  t.equal(readHour(new Date(Number.NaN), 'time'), undefined);
  t.equal(readHour('09:30:00', 'time'), '09:30');
  t.equal(readHour('09:30:00.0000000', 'time'), '09:30');
  t.equal(readHour('2026-03-15 14:30:00', 'datetime'), '14:30');
  t.equal(readHour('2026-03-15T14:30', 'datetime'), '14:30');
  t.equal(readHour('1900-01-01 08:00:00.000', 'datetime'), '08:00', 'time stored on the zero date');
  t.equal(readHour('2026-03-15 25:00:00', 'datetime'), undefined);
  t.equal(readHour(null, 'time'), undefined);
});

t.test('readHour: hhmm and minutes columns', async (t) => {
  t.equal(readHour(1330, 'hhmm'), '13:30');
  t.equal(readHour(930, 'hhmm'), '09:30');
  t.equal(readHour(5, 'hhmm'), '00:05');
  t.equal(readHour(0, 'hhmm'), '00:00');
  t.equal(readHour('0930', 'hhmm'), '09:30');
  t.equal(readHour(960, 'hhmm'), undefined, 'minute 60');
  t.equal(readHour(2400, 'hhmm'), undefined);
  t.equal(readHour(-30, 'hhmm'), undefined);
  t.equal(readHour(9.5, 'hhmm'), undefined);
  t.equal(readHour(570, 'minutes'), '09:30');
  t.equal(readHour(0, 'minutes'), '00:00');
  t.equal(readHour(1439, 'minutes'), '23:59');
  t.equal(readHour('810', 'minutes'), '13:30');
  t.equal(readHour(1440, 'minutes'), undefined);
  t.equal(readHour(-1, 'minutes'), undefined);
  t.equal(readHour('9:30', 'minutes'), undefined);
});

t.test('addMinutes stays inside the day', async (t) => {
  t.equal(addMinutes('09:30', 30), '10:00');
  t.equal(addMinutes('09:30', 0), '09:30');
  t.equal(addMinutes('23:30', 29), '23:59');
  t.equal(addMinutes('23:30', 30), undefined, '24:00 is the next day');
  t.equal(addMinutes('00:10', -10), '00:00');
  t.equal(addMinutes('00:10', -11), undefined);
  t.equal(addMinutes('9:30', 10), undefined, 'not strict HH:MM');
  t.equal(addMinutes('09:30', 1.5), undefined);
});

t.test('isCalendarDate and isClockHour are strict', async (t) => {
  t.ok(isCalendarDate('2024-02-29'));
  t.ok(isCalendarDate('2026-12-31'));
  t.notOk(isCalendarDate('2026-02-29'));
  t.notOk(isCalendarDate('2026-02-30'));
  t.notOk(isCalendarDate('1900-02-29'));
  t.notOk(isCalendarDate('2026-3-15'));
  t.notOk(isCalendarDate('2026-03-15 '));
  t.notOk(isCalendarDate('2026-03-15T00:00'));
  t.notOk(isCalendarDate('15/03/2026'));
  t.ok(isClockHour('00:00'));
  t.ok(isClockHour('23:59'));
  t.notOk(isClockHour('24:00'));
  t.notOk(isClockHour('9:30'));
  t.notOk(isClockHour('09:60'));
  t.notOk(isClockHour('09:30:00'));
});

t.test('parseApiDate converts instants to the clinic calendar', async (t) => {
  t.equal(parseApiDate('2026-05-01', SP), '2026-05-01');
  t.equal(parseApiDate('2026-05-01T01:30:00Z', SP), '2026-04-30', 'UTC 01:30 is 22:30 the day before in São Paulo');
  t.equal(parseApiDate('2026-05-01T02:30:00Z', SP), '2026-04-30');
  t.equal(parseApiDate('2026-05-01T03:00:00Z', SP), '2026-05-01', 'midnight in São Paulo');
  t.equal(parseApiDate('2026-05-01T23:30:00-03:00', SP), '2026-05-01');
  t.equal(parseApiDate('2026-05-01T23:30:00.250-03:00', 'Asia/Tokyo'), '2026-05-02');
  t.equal(parseApiDate('2026-05-01T01:30Z', 'UTC'), '2026-05-01');
  t.equal(parseApiDate('2026-05-01T01:30:00+05:30', 'UTC'), '2026-04-30');
});

t.test('parseApiDate rejects invalid input', async (t) => {
  for (const s of [
    '',
    '2026-02-30',
    '2026-02-30T10:00:00Z', // Date.parse would roll this into March
    '2026-05-01T24:00:00Z',
    '2026-05-01T10:60:00Z',
    '2026-05-01T10:00:00', // no offset: whose wall clock?
    '2026-05-01 10:00:00Z',
    '01/05/2026',
    '2026-5-1',
    'tomorrow',
  ]) {
    t.equal(parseApiDate(s, SP), undefined, s);
  }
  t.equal(parseApiDate('2026-05-01T10:00:00+24:00', SP), undefined, 'offset out of range');
  t.equal(parseApiDate(20260501 as unknown as string, SP), undefined, 'untyped JS caller');
});

t.test('daysBetween is plain calendar math', async (t) => {
  t.equal(daysBetween('2026-03-01', '2026-03-15'), 14);
  t.equal(daysBetween('2026-03-15', '2026-03-01'), -14);
  t.equal(daysBetween('2026-02-28', '2026-03-01'), 1);
  t.equal(daysBetween('2024-02-28', '2024-03-01'), 2);
  t.equal(daysBetween('2025-12-31', '2026-01-01'), 1);
  // Across a DST change of the machine's zone, still whole days.
  t.equal(daysBetween('2026-03-01', '2026-04-01'), 31);
  t.equal(daysBetween('2026-10-01', '2026-11-01'), 31);
  t.throws(() => daysBetween('2026-02-30', '2026-03-01'), RangeError);
});

t.test('todayIn and nowHourIn read the wall clock of a zone', async (t) => {
  const instant = new Date('2026-05-01T01:30:00Z');
  t.equal(todayIn(SP, instant), '2026-04-30');
  t.equal(nowHourIn(SP, instant), '22:30');
  t.equal(todayIn('UTC', instant), '2026-05-01');
  t.equal(nowHourIn('UTC', instant), '01:30');
  t.equal(nowHourIn('Asia/Kolkata', instant), '07:00');
  t.equal(nowHourIn(SP, new Date('2026-05-01T03:00:00Z')), '00:00', 'midnight is 00, not 24');
  t.ok(isCalendarDate(todayIn(SP)));
  t.ok(isClockHour(nowHourIn(SP)));
  t.throws(() => todayIn('Mars/Olympus_Mons', instant), RangeError);
});

t.test('toStoredHour and toStoredDate invert the readers', async (t) => {
  t.equal(toStoredHour('13:30', 'text'), '13:30');
  t.equal(toStoredHour('13:30', 'hhmm'), 1330);
  t.equal(toStoredHour('09:05', 'hhmm'), 905);
  t.equal(toStoredHour('13:30', 'minutes'), 810);
  t.equal(toStoredHour('13:30', 'time'), '13:30:00');
  t.equal(toStoredHour('13:30', 'datetime'), '13:30:00');
  t.throws(() => toStoredHour('25:00', 'text'), RangeError);
  for (const format of ['text', 'time', 'datetime', 'hhmm', 'minutes'] as const) {
    for (const hour of ['00:00', '09:05', '13:30', '23:59']) {
      t.equal(readHour(toStoredHour(hour, format), format), hour, `${hour} ${format}`);
    }
  }

  t.equal(toStoredDate('2026-03-15', 'date'), '2026-03-15');
  t.equal(toStoredDate('2026-03-15', 'text'), '2026-03-15');
  t.equal(toStoredDate('2026-03-15', 'text', 'dmy'), '15/03/2026');
  t.equal(toStoredDate('2026-03-15', 'datetime'), '2026-03-15 00:00:00');
  t.equal(toStoredDate('2026-03-15', 'int'), 20260315);
  t.throws(() => toStoredDate('2026-02-30', 'date'), RangeError);
  for (const format of ['date', 'datetime', 'text', 'int'] as const) {
    t.equal(readDate(toStoredDate('2026-03-05', format), format), '2026-03-05', format);
  }
  t.equal(readDate(toStoredDate('2026-03-05', 'text', 'dmy'), 'text'), '2026-03-05');
});

t.test('nowIn: the clinic wall clock in the forms legacy columns take', async (t) => {
  // 2026-05-01T02:30:15Z is 2026-04-30 23:30:15 in São Paulo (UTC−3).
  t.same(nowIn('America/Sao_Paulo', new Date('2026-05-01T02:30:15Z')), { date: '2026-04-30', time: '23:30:15', datetime: '2026-04-30 23:30:15' })
  t.same(nowIn('UTC', new Date('2026-05-01T00:00:00Z')).time, '00:00:00', 'midnight is 00, not 24')
})
