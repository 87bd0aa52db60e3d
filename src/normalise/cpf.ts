export type CpfFormat = 'digits' | 'masked'

const CPF_PUNCTUATION = /^[\d\s.\-/]*$/

/**
 * 11 CPF digits from a legacy column, or undefined. Checks shape only: legacy
 * rows hold CPFs with wrong check digits and must still be findable.
 */
export function normaliseCpf (raw: unknown): string | undefined {
  if (typeof raw === 'number') return fromInteger(Number.isSafeInteger(raw) ? BigInt(raw) : -1n)
  if (typeof raw === 'bigint') return fromInteger(raw)
  if (typeof raw !== 'string') return undefined
  const text = raw.trim()
  // Digits only: may be a numeric column read as a string (mssql returns
  // BIGINT as string), so leading zeros may have been lost just the same.
  if (/^\d+$/.test(text)) return fromInteger(BigInt(text))
  if (!CPF_PUNCTUATION.test(text)) return undefined
  const digits = text.replace(/\D/g, '')
  return digits.length === 11 ? digits : undefined
}

/** Check-digit validation; all-same-digit CPFs pass the arithmetic but are invalid. */
export function isValidCpf (digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false
  const nums = [...digits].map(Number)
  return checkDigit(nums.slice(0, 9)) === nums[9] && checkDigit(nums.slice(0, 10)) === nums[10]
}

export function formatCpf (digits: string, format: CpfFormat): string {
  if (!/^\d{11}$/.test(digits)) throw new TypeError(`not 11 CPF digits: ${digits}`)
  if (format === 'digits') return digits
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`
}

// Numeric columns drop leading zeros; a positive integer of up to 11 digits
// is padded back. Zero is the usual 'no CPF' filler, not a CPF.
function fromInteger (n: bigint): string | undefined {
  if (n <= 0n || n > 99_999_999_999n) return undefined
  return n.toString().padStart(11, '0')
}

function checkDigit (nums: number[]): number {
  const weightStart = nums.length + 1
  const sum = nums.reduce((acc, d, i) => acc + d * (weightStart - i), 0)
  const rest = (sum * 10) % 11
  return rest === 10 ? 0 : rest
}

/**
 * What a CPF search looks up (issue 13): the stored value starts with the masked form
 * (`123.456.789-09`), the 11 digits, or the digits without the leading zeros a numeric copy
 * lost — prefixes, so a CHAR(14) padded with spaces is found by an index seek too.
 */
export const CPF_PREFIX_SLOTS = 3

export function cpfProbes (digits: string): { exact: string[]; prefixes: string[] } {
  const prefixes = [formatCpf(digits, 'masked'), digits]
  const unpadded = digits.replace(/^0+/, '')
  // Only a zero or two: a shorter prefix would bring a thousand candidates for one CPF.
  if (unpadded !== digits && unpadded.length >= 9) prefixes.push(unpadded)
  return { exact: [], prefixes }
}
