/**
 * A whole number with its thousands grouped by commas (12,345), as `toLocaleString('en-US')`
 * writes it, without Intl: a process's first locale format loads ICU's number data, tens of
 * milliseconds (hundreds on a busy machine) that the tool descriptions used to cost every start.
 * A number that is not whole is left to Intl.
 */
export function groupedDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',')
  return n < 0 ? `-${digits}` : digits
}
