/** A trailing release stamp: -20241022, -2024-10-22, @20250514. */
const RELEASE_DATE = /[-@](\d{8}|\d{4}-\d{2}-\d{2})$/

/**
 * A model's name as the chat header shows it: without the routing prefix ("anthropic/") and the
 * release date, which say little at a glance. The picker's title keeps the full name, and a name
 * that would shorten to nothing stays as it is.
 */
export function shortModelName(model: string): string {
  const last = model.slice(model.lastIndexOf('/') + 1)
  const short = last.replace(RELEASE_DATE, '')
  return short === '' ? model : short
}
