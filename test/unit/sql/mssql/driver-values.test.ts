// Issue 7, defect 13: the SQL Server driver bound dates with new Date(year, …), which reads
// years 0–99 as 1900–1999: the "no birthday" 0001-01-01 was written as 1901-01-01. Here every
// value toMssqlValue builds is put through tedious's own encoder for its column type (the bytes
// it would send, with useUTC: false as Ponte connects) and decoded back: it must be exactly
// the stored text, whatever the process's time zone.
import t from 'tap'
import { TYPES } from 'tedious'
import { toMssqlValue } from '../../../../src/sql/mssql/driver.js'
import { dateOfDay, dayNumber } from '../../../../src/normalise/datetime.js'

const WIRE = { useUTC: false } as any

function bytes (type: any, value: unknown, scale?: number): Buffer {
  const parameter = { value: type.validate(value, undefined, WIRE), scale }
  return Buffer.concat([...type.generateParameterData(parameter, WIRE)] as Buffer[])
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')
const clock = (seconds: number): string => `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`

/** date: 3 bytes, days since 0001-01-01. */
function sentDate (text: string): string {
  return dateOfDay(dayNumber('0001-01-01') + bytes(TYPES.Date, toMssqlValue(text, 'date')).readUIntLE(0, 3))
}

/** datetime: days since 1900-01-01, then 1/300 s since midnight. */
function sentDatetime (text: string): string {
  const b = bytes(TYPES.DateTime, toMssqlValue(text, 'datetime'))
  return `${dateOfDay(dayNumber('1900-01-01') + b.readInt32LE(0))} ${clock(Math.round(b.readUInt32LE(4) / 300))}`
}

/** time(0): 3 bytes, seconds since midnight. */
function sentTime (text: string): string {
  return clock(bytes(TYPES.Time, toMssqlValue(text, 'time'), 0).readUIntLE(0, 3))
}

/**
 * Whether the wall-clock 'YYYY-MM-DD HH:MM:SS' happens in `zone` (Intl's reading, independent
 * of the code under test): an instant shows it, at either offset the zone has a day around it.
 */
function happensIn (zone: string, wall: string): boolean {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
  const show = (ms: number): string => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]))
    return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`
  }
  const [y, mo, d, h, mi, se] = wall.split(/[- :]/).map(Number)
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, se) // years ≥ 1753 here: Date.UTC reads them right
  const offsetAt = (ms: number): number => Date.parse(show(ms).replace(' ', 'T') + 'Z') - ms
  return [offsetAt(asUtc - 86_400_000), offsetAt(asUtc + 86_400_000)].some((o) => show(asUtc - o) === wall)
}

/** Each sample's value as sent, or the samples refused only because the zone skips them. */
function check (zone: string, texts: string[], sent: (text: string) => string, expect: (text: string) => string): { wrong: string[], skipped: string[] } {
  const wrong: string[] = []
  const skipped: string[] = []
  for (const text of texts) {
    try {
      if (sent(text) !== expect(text)) wrong.push(text)
    } catch (err) {
      if (err instanceof RangeError && !happensIn(zone, expect(text))) skipped.push(text)
      else wrong.push(`${text}: ${String(err)}`)
    }
  }
  return { wrong, skipped }
}

const year = (y: number): string => pad(y, 4)
const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)

/** Every year's first and last day, every leap day, and the days around them. */
function dateSamples (from: number): string[] {
  const out: string[] = []
  for (let y = from; y <= 9999; y++) {
    out.push(`${year(y)}-01-01`, `${year(y)}-12-31`)
    if (isLeap(y)) out.push(`${year(y)}-02-29`)
    if (y % 100 === 0 || isLeap(y)) out.push(`${year(y)}-02-28`, `${year(y)}-03-01`)
  }
  return out
}

// Zones whose clocks differ from UTC by odd amounts, historic local mean time (São Paulo was
// −3:06:28 until 1914), DST, and both sides of the date line. None skips a whole sampled day.
const ZONES = ['UTC', 'America/Sao_Paulo', 'Asia/Kathmandu', 'Pacific/Tongatapu', 'Pacific/Pago_Pago']

const originalTz = process.env.TZ
t.teardown(() => {
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

for (const zone of ZONES) {
  t.test(`TZ=${zone}`, async (t) => {
    process.env.TZ = zone

    t.test('date: 0001-01-01 … 9999-12-31 round-trip exactly', async (t) => {
      t.equal(sentDate('0001-01-01'), '0001-01-01', 'the "no birthday" value stays in year 1, not 1901')
      t.equal(sentDate('9999-12-31'), '9999-12-31')
      // Years 1–99, every day: the years new Date(y, …) moved to the 1900s.
      const yearsOneToNinetyNine = Array.from({ length: dayNumber('0100-01-01') - dayNumber('0001-01-01') }, (_, i) => dateOfDay(dayNumber('0001-01-01') + i))
      const wrong: string[] = []
      for (const d of [...yearsOneToNinetyNine, ...dateSamples(100)]) if (sentDate(d) !== d) wrong.push(d)
      t.same(wrong.slice(0, 10), [], 'every day of years 1–99, every year boundary and leap day after')
    })

    t.test('datetime: 1753-01-01 … 9999-12-31, at 00:00:00 and 23:59:59', async (t) => {
      const texts = dateSamples(1753).flatMap((d) => [d, `${d} 00:00:00`, `${d} 23:59:59`, `${d} 12:30:00`])
      const { wrong, skipped } = check(zone, texts, sentDatetime, (text) => text.length === 10 ? `${text} 00:00:00` : text)
      t.same(wrong.slice(0, 10), [], 'every year boundary and leap day, start and end of the day: exact')
      // A zone that moved its clock forward at midnight (leaving local mean time, say) has no
      // such wall time; no Date can carry it, so it is refused, never written shifted.
      if (zone === 'UTC') t.same(skipped, [], 'UTC skips nothing')
      else t.comment(`${skipped.length} wall times ${zone} never had, refused: ${skipped.slice(0, 3).join(', ')}`)
      t.equal(sentDatetime('2026-03-15T09:30'), '2026-03-15 09:30:00', 'HH:MM without seconds')
      t.throws(() => bytes(TYPES.DateTime, toMssqlValue('1752-12-31 00:00:00', 'datetime')), /range/i, 'before 1753 the driver refuses; never a shifted year')
    })

    t.test('time: the whole day', async (t) => {
      const wrong: string[] = []
      for (let s = 0; s < 86_400; s += 59) if (sentTime(clock(s)) !== clock(s)) wrong.push(clock(s))
      t.same(wrong, [], 'every 59th second')
      t.equal(sentTime('00:00:00'), '00:00:00')
      t.equal(sentTime('23:59:59'), '23:59:59')
      t.equal(sentTime('09:30'), '09:30:00')
    })
  })
}

t.test('a wall-clock time the process\'s zone skips is refused, not written an hour off', async (t) => {
  process.env.TZ = 'America/Sao_Paulo'
  // DST began at midnight on 2018-11-04 in São Paulo: 00:30 did not happen there.
  t.throws(() => toMssqlValue('2018-11-04 00:30:00', 'datetime'), RangeError)
  t.equal(sentDate('2018-11-04'), '2018-11-04', 'the date alone still binds')
  process.env.TZ = 'Pacific/Kiritimati'
  // Kiribati moved across the date line: 1994-12-31 never happened on Kiritimati.
  t.throws(() => toMssqlValue('1994-12-31', 'date'), RangeError)
  process.env.TZ = 'UTC'
  t.equal(sentDatetime('2018-11-04 00:30:00'), '2018-11-04 00:30:00', 'under TZ=UTC (server.ts) it binds')
})

t.test('values that are not dates pass through untouched', async (t) => {
  t.equal(toMssqlValue(null, 'date'), null)
  t.equal(toMssqlValue(undefined, 'datetime'), null)
  t.equal(toMssqlValue('abc', 'text'), 'abc')
  t.equal(toMssqlValue(20260315, 'int'), 20260315)
})
