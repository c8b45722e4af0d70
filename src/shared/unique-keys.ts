import type { z } from 'zod'

/** The keys of one settings list met so far, and a way to meet the next. */
export interface UniqueKeys {
  readonly seen: ReadonlySet<string>
  /** Meets item `i`'s key: one met before is reported at the item's key field. */
  meet(key: string, i: number): void
}

/**
 * Checks that the items of the settings list `list` (its key: `providers`) each have a key of
 * their own, reported in the words of `owner` and `field`: `provider id "x" is used twice; ids
 * must be unique`. Items are met in order, so the issues come in the order of the list.
 */
export function uniqueKeys(
  ctx: z.RefinementCtx,
  list: string,
  owner: string,
  field: 'id' | 'name'
): UniqueKeys {
  const seen = new Set<string>()
  return {
    seen,
    meet(key, i) {
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [list, i, field],
          message: `${owner} ${field} "${key}" is used twice; ${field}s must be unique`
        })
      }
      seen.add(key)
    }
  }
}
