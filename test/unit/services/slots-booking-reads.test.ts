// What a booking reads, in fewer statements than it used to: one statement for the
// professional's and the client's day (slots.ts heldRowsOfEach) must give exactly the rows the
// two single reads give, and one read of a professional's day (Availability.day) must answer
// windowAt and offers as the whole-template reads do — on both samples.
import t from 'tap'
import { openSample } from '../../../src/installation.js'
import { Catalog } from '../../../src/services/catalog.js'
import { Availability } from '../../../src/services/availability.js'
import { heldRows, heldRowsOfEach } from '../../../src/services/slots.js'
import { windowsOn } from '../../../src/services/slots.js'
import { readAll } from '../../../src/services/slots.js'

const ids = (rows: { id: string }[]): string[] => rows.map((r) => r.id).sort()

for (const sample of ['clinica-sorriso', 'northwind-health']) {
  t.test(sample, async (t) => {
    const inst = await openSample(`mappings/${sample}.yaml`)
    t.teardown(inst.close)
    const { compiled, db } = inst
    const free = compiled.model.states.free
    const all = compiled.appointments({ filters: [], minimal: false })
    const bound = all.bind({ from: '2000-01-01', to: '2100-12-31' })
    const appointments = readAll(await db.query(bound!.statement, bound!.args), all.read)
    t.ok(appointments.length > 20, `the sample has appointments (${appointments.length})`)

    // Pairs that share rows, and pairs that do not: the client of one appointment with the professional of another.
    const pairs = appointments.slice(0, 40).map((a, i) => ({ date: a.date, professional: a.refs.professional, client: appointments[(i * 7) % appointments.length].refs.client }))
    let both = 0
    for (const p of pairs) {
      const range = { from: p.date, to: p.date }
      const each = await db.transaction(async (tx) => await heldRowsOfEach(tx, compiled, free, range, p))
      const professional = p.professional === undefined ? [] : await heldRows(db, compiled, free, range, { professional: p.professional })
      const client = p.client === undefined ? [] : await heldRows(db, compiled, free, range, { client: p.client })
      t.same(ids(each.professional), ids(professional), `${p.date}: professional ${p.professional}'s rows`)
      t.same(ids(each.client), ids(client), `${p.date}: client ${p.client}'s rows`)
      if (professional.length > 0 && client.length > 0) both++
    }
    t.ok(both > 0, 'some pairs hold rows on both sides')
    const none = await db.transaction(async (tx) => await heldRowsOfEach(tx, compiled, free, { from: pairs[0].date, to: pairs[0].date }, { professional: pairs[0].professional, client: 'not-a-number' }))
    t.same(ids(none.client), [], 'a client id its column cannot hold has no rows')
    t.same(ids(none.professional), ids(await heldRows(db, compiled, free, { from: pairs[0].date, to: pairs[0].date }, { professional: pairs[0].professional })), '… and the professional\'s rows are still read')

    const av = new Availability(compiled, db, new Catalog(compiled, db), { freeing: free })
    const mapped = compiled.availability!
    const weekly = mapped.weekly ? readAll(await db.query(mapped.weekly.statement), mapped.weekly.read) : []
    let checked = 0
    for (const p of pairs.slice(0, 15)) {
      if (p.professional === undefined) continue
      const dated = mapped.dated ? readAll(await db.query(mapped.dated.bind({ from: p.date, to: p.date }).statement, mapped.dated.bind({ from: p.date, to: p.date }).args), mapped.dated.read) : []
      const windows = windowsOn(p.date, weekly, dated).filter((w) => w.professional === p.professional)
      const day = await av.day(p.date, p.professional, undefined)
      for (const hour of ['07:00', '08:00', '09:30', '12:00', '14:00', '17:30']) {
        const end = `${String(Number(hour.slice(0, 2)) + (hour.endsWith('30') ? 1 : 0)).padStart(2, '0')}:${hour.endsWith('30') ? '00' : '30'}`
        t.same(day?.windowAt(hour), await av.windowAt(p.date, hour, p.professional, undefined), `${p.date} ${hour}: the same window`)
        t.equal(day?.offers(hour, end), await av.offers(p.date, hour, end, p.professional, undefined, undefined), `${p.date} ${hour}: offered alike`)
        const inside = windows.some((w) => Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3)) >= w.start && Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3)) < w.end)
        t.equal(day?.windowAt(hour) !== undefined, inside, `${p.date} ${hour}: a window exactly when the whole template has one`)
        checked++
      }
    }
    t.ok(checked > 0)
  })
}
