// Which kind of line a phone is (mobile, landline…), as libphonenumber's full numbering plans
// place it: a phone row's kind code follows the number written (`phoneLine`).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'

export type PhoneLine = 'mobile' | 'fixedLine' | 'fixedLineOrMobile' | 'other'

/** The line of an E.164 number; `other` for a number the plans place elsewhere or nowhere. */
export function phoneLine (e164: string): PhoneLine {
  const type = parsePhoneNumberFromString(e164)?.getType()
  if (type === 'MOBILE') return 'mobile'
  if (type === 'FIXED_LINE') return 'fixedLine'
  // The plans of +1 (and a few others) do not tell a mobile from a landline.
  if (type === 'FIXED_LINE_OR_MOBILE') return 'fixedLineOrMobile'
  return 'other'
}
