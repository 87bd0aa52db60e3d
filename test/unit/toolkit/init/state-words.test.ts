// init reads status labels for the state they say. A label still waiting for a confirmation is
// WAITING, never CONFIRMED (reminders would skip those patients), and a negation this list does
// not pair with its word ("not arrived", "não pago") is left to a person, never guessed.
import t from 'tap'
import { readState } from '../../../../src/toolkit/init/state-words.js'

t.test('labels awaiting a confirmation are WAITING', async (t) => {
  for (const label of ['A confirmar', 'Por confirmar', 'Aguardando confirmação', 'Pending confirmation', 'Awaiting confirmation', 'To be confirmed', 'Confirmação pendente', 'Unconfirmed']) {
    t.equal(readState(label)?.state, 'WAITING', label)
  }
})

t.test('a negation the list does not pair is no reading', async (t) => {
  for (const label of ['Not seen', 'Not arrived', 'Não pago', 'Sem chegada']) t.equal(readState(label), undefined, label)
})

t.test('the plain readings stay', async (t) => {
  t.same(['Confirmado', 'Não compareceu', 'Arrived', 'Cancelado', 'Atendido', 'No show'].map((l) => readState(l)?.state), ['CONFIRMED', 'MISSED', 'CONFIRMED', 'CANCELED', 'DONE', 'MISSED'])
})
