// The one window of dates the interface accepts (issue 7, defect 1): every route reads its
// dates through readApiDate, so its edges are pinned here and its routes in
// test/http/availability/extreme-dates.test.ts.
import t from 'tap'
import { DATE_WINDOW, readApiDate } from '../../../src/normalise/date-window.js'
import type { FieldIssue } from '../../../src/errors.js'

const SP = 'America/Sao_Paulo'

function read (raw: unknown, timeZone = SP): { date: string | undefined, issues: FieldIssue[] } {
  const issues: FieldIssue[] = []
  return { date: readApiDate(raw, timeZone, '/body/date', issues), issues }
}

t.test('the window is 1900-01-01 … 2199-12-31, both ends included', async (t) => {
  t.same(DATE_WINDOW, { first: '1900-01-01', last: '2199-12-31' })
  for (const ok of ['1900-01-01', '2199-12-31', '2026-03-15', '2024-02-29']) t.same(read(ok), { date: ok, issues: [] }, ok)
  for (const out of ['1899-12-31', '2200-01-01', '0001-01-01', '9999-12-31']) {
    const r = read(out)
    t.equal(r.date, undefined, out)
    t.same(r.issues, [{ path: '/body/date', message: 'must be from 1900-01-01 to 2199-12-31' }], `${out}: says the window`)
  }
})

t.test('date-times are read on the clinic\'s calendar, then held to the window', async (t) => {
  t.equal(read('2026-05-01T01:30:00Z').date, '2026-04-30')
  t.equal(read('1900-01-01T12:00:00Z').date, '1900-01-01')
  t.equal(read('1900-01-01T02:00:00Z').date, undefined, '1899-12-31 in São Paulo')
  t.equal(read('2199-12-31T23:59:59-12:00').date, undefined, '2200-01-01 in São Paulo')
  t.equal(read('2199-12-31T23:59:59-12:00', 'Etc/GMT+12').date, '2199-12-31', 'but 2199-12-31 at UTC−12')
})

t.test('whatever is not a date is one issue naming the field and the window', async (t) => {
  for (const raw of ['9999-12-31T23:59:59Z', '0001-01-01T00:00:00-03:00', '10000-01-01', '+010000-01-01', '2026-02-30', '0000-01-01', '', 'tomorrow', 20260315, null]) {
    const r = read(raw)
    t.equal(r.date, undefined, String(raw))
    t.equal(r.issues.length, 1, `${String(raw)}: one issue`)
    t.equal(r.issues[0]?.path, '/body/date')
    t.match(r.issues[0]?.message, /1900-01-01 to 2199-12-31/, `${String(raw)}: names the window`)
  }
})
