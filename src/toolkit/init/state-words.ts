// What an appointment's status says, read from its label (`Cancelado < 24h`, `No Show`,
// `Confirmado por SMS`) or from the code itself where it is a word (`user_cancelled`,
// `COMPLETED`), in English, Portuguese and Spanish. Accents, case, `_` and `-` do not count.
// A code no word explains is left unread: the draft says so rather than guess.

export type State = 'WAITING' | 'CONFIRMED' | 'CANCELED' | 'MISSED' | 'DONE'

/**
 * A reading: the state, or `FREE` for a slot no one holds yet (GNU Health's `free` rows);
 * `plain` when the text says the state itself (`Cancelado`), not only something that
 * implies it (`Chegou`, `Billed`): a write of the state takes a plain code first.
 */
export interface Reading { state: State | 'FREE', plain: boolean, word: string }

/** Tried in this order: a negation before the word it negates (`não compareceu`, `unconfirmed`). */
const WORDS: Array<[State | 'FREE', boolean, RegExp]> = [
  // Whole codes abbreviated as desks do: `AG`, `CONF`, `CANC`.
  ['WAITING', true, /^(ag|agd|agend)$/],
  ['CONFIRMED', true, /^(conf|cnf)$/],
  ['CANCELED', true, /^(canc|cnc)$/],
  ['MISSED', true, /\b(no ?shows?|noshow|did not (attend|come|show)|dna|missed|nao (compareceu|veio|atendid[oa])|falt(ou|a|osos?)|faltante|ausen(te|cia)|no (asistio|acudio|se presento|vino)|inasisten\w*|sem atendimento|sin atencion|left without( being)? seen|lwbs)\b/],
  ['WAITING', true, /\b(unconfirmed|not confirmed|nao confirmad[oa]|sem confirmacao|no confirmad[oa]|sin confirmar|(a|por|falta|aguardando|esperando|awaiting|pending|to be) confirm\w*|confirm\w* (pendente|pending|pendiente))\b/],
  ['CANCELED', true, /\b(cancel\w*|canceled|desmarcad[oa]|desmarcou|anulad[oa]|annull?ed|voided)\b/],
  ['FREE', true, /^(free|livre|disponivel|available|vag[oa]|libre|open ?slot|empty ?slot)$/],
  ['CONFIRMED', true, /\b(confirm\w*)\b/],
  ['DONE', true, /\b(done|complete[d]?|finish(ed)?|finalizad[oa]|conclu[ií]d[oa]|concluded|realizad[oa]|atendid[oa]|attended|seen|completad[oa]|terminad[oa])\b/],
  ['DONE', false, /\b(billed|faturad[oa]|facturad[oa]|codificad[oa]|coded|checked ?out|check ?out|cobrad[oa]|paid|pag[oa]|signed|assinad[oa])\b/],
  ['CONFIRMED', false, /\b(arrived?|arrival|chegou|chegad[oa]|lleg(o|ad[oa])|here|presente?|checked ?in|check ?in|in (the )?(room|exam\w*|consult\w*|session|progress|chair)|em (consulta|atendimento|sala)|en (consulta|sala|atencion)|picked|empty room|waiting room|sala de espera|walk ?in)\b/],
  ['WAITING', true, /\b(schedul\w*|booked|pending|pendente|pendiente|agendad[oa]|marcad[oa]|reservad[oa]|programad[oa]|waiting|aguardando|esperando|to ?do|new|novo|nuevo|open|abert[oa]|abiert[oa]|requested|solicitad[oa])\b/],
  ['WAITING', false, /\b(none|nenhum|ningun[oa]?|reminder|lembrete|recordatorio|left message|message|mensagem|recado|printed|impress[oa]|pendencia|prontuario|chart|tentative)\b/]
]

const NEGATIONS = new Set(['not', 'nao', 'no', 'sem', 'sin', 'never', 'nunca'])

/** Letters only, no accents, lower case, words apart: `Não compareceu` → `nao compareceu`, `user_cancelled` → `user cancelled`. */
export function plainText (text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[_\-/.]+/g, ' ').replace(/\s+/g, ' ').trim()
}

/** What the text says of the appointment's state, or undefined when no word tells. */
export function readState (text: string): Reading | undefined {
  const plain = plainText(text)
  for (const [state, direct, re] of WORDS) {
    const m = re.exec(plain)
    // "Not arrived", "não pago": a negation before a word this list does not pair with it says
    // nothing certain, so the code is left to a person (a TODO), never guessed the opposite.
    if (m && NEGATIONS.has(plain.slice(0, m.index).trim().split(' ').pop() ?? '')) return undefined
    if (m) return { state, plain: direct, word: m[0] }
  }
  return undefined
}
