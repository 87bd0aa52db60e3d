// A phone written again in a column of its own format: the booked client's phone in the
// appointment row (`{ client: phone, format: '(##) #####-####' }`, a Delphi agenda's
// FONEPACIENTE) and the new phone in a second column of its phone row (`{ phone: e164 }`,
// Tryton's `value_compact`). A number the mask cannot spell is written in the country's
// national format instead; a spelling longer than its column still refuses the write by
// name (db/column-values.ts), which check sizes only for the mask.
import { toStoredPhone, type ForeignPhoneFormat, type StoredPhoneFormat } from '../../normalise/phone.js'
import type { WriteSpecDoc } from '../schema.js'
import type { MappingModel } from '../model.js'
import { reference, segment } from './references.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
type PhoneCopyDoc = Extract<WriteValueDoc, { phone: unknown }>

export const isPhoneCopy = (w: WriteValueDoc): w is PhoneCopyDoc => 'phone' in w

/** An E.164 number in `format`, the clinic's own numbers a mask cannot spell in their national format. */
export function phoneCopier (model: MappingModel, format: StoredPhoneFormat | undefined): (e164: string) => string {
  const home = model.phone.defaultCountry
  const foreign: ForeignPhoneFormat | undefined = model.client.write?.foreignPhoneFormat
  const as = format ?? model.client.write?.phoneFormat ?? 'digits'
  return (e164) => {
    try {
      return toStoredPhone(e164, as, home, foreign)
    } catch {
      return toStoredPhone(e164, 'masked', home, foreign)
    }
  }
}

/** A phone row's column holding the written phone in another format. */
export interface PhoneCopyColumn { column: string, path: string, copy: (e164: string) => string }

/** The `{ phone: … }` entries of a phone row's `set` (at `path`), in the table `table`. */
export function phoneCopyColumns (model: MappingModel, set: Record<string, WriteValueDoc> | undefined, table: string, path: string): PhoneCopyColumn[] {
  return Object.entries(set ?? {}).flatMap(([column, w]): PhoneCopyColumn[] => {
    if (!isPhoneCopy(w)) return []
    const at = `${path}/${segment(column)}`
    // Recorded with what it writes: check compares the copy with the live column.
    reference({ table, column, use: 'write', path: at, written: w })
    return [{ column, path: `${at}/phone`, copy: phoneCopier(model, w.phone) }]
  })
}
