// A phone row's kind code that follows the number written (`phoneLine`): mobile, landline or
// other, each the code the mapping gives. A code the collect's own `where` drops would make
// the new phone unreadable, so it is refused at its line when the mapping compiles.
import { phoneLine } from '../../normalise/phone-line.js'
import type { LiteralValue, WriteSpecDoc } from '../schema.js'
import type { Value } from '../model.js'
import { admits } from './condition.js'
import { CompileError } from './scope.js'
import { reference, segment } from './references.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
type PhoneLineDoc = Extract<WriteValueDoc, { phoneLine: unknown }>

export const isPhoneLine = (w: WriteValueDoc): w is PhoneLineDoc => 'phoneLine' in w

/** The column a phone row's kind is written to and the code of an E.164 number. */
export interface PhoneLineColumn { column: string, path: string, code: (e164: string) => LiteralValue }

/** The `phoneLine` entries of a phone row's `set` (at `path`), checked against the collect's `where`. */
export function phoneLineColumns (set: Record<string, WriteValueDoc> | undefined, collect: NonNullable<Value['collect']>, path: string, wherePath: string): PhoneLineColumn[] {
  return Object.entries(set ?? {}).flatMap(([column, w]): PhoneLineColumn[] => {
    if (!isPhoneLine(w)) return []
    const codes = w.phoneLine
    const at = `${path}/${segment(column)}/phoneLine`
    // Recorded with what it writes: check compares the codes with the live column.
    reference({ table: collect.table, column, use: 'write', path: `${path}/${segment(column)}`, written: w })
    for (const [line, code] of Object.entries(codes)) {
      const where = collect.where === undefined ? [] : Array.isArray(collect.where) ? collect.where : [collect.where]
      const refused = where.findIndex((c, i) => admits(c, Array.isArray(collect.where) ? `${wherePath}/${i}` : wherePath, column, code) === false)
      if (refused >= 0) {
        throw new CompileError(`${at}/${line}`, `a ${line} phone would be written with ${column} = ${JSON.stringify(code)}, which the phones' \`where\` (${wherePath}) does not accept: the new phone would not read back; give a code the \`where\` accepts`)
      }
    }
    return [{
      column,
      path: at,
      code: (e164) => {
        const line = phoneLine(e164)
        return line === 'other' ? codes.otherwise : codes[line] ?? codes.otherwise
      }
    }]
  })
}
