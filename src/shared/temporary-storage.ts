import { z } from 'zod'

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const
const DURATION = /^(\d{1,6})(s|m|h|d)$/

/** `90m`, `24h`, `7d` as milliseconds, or null when it is not such a span. */
export function parseSpan(text: string): number | null {
  const match = DURATION.exec(text.trim())
  if (!match) return null
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
}

const MIN_REAP_AFTER_MS = 60_000
const MAX_REAP_AFTER_MS = 3650 * UNIT_MS.d

const reapAfterSchema = z.string().superRefine((text, ctx) => {
  const ms = parseSpan(text)
  if (ms === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'write a span such as 90m, 24h or 7d (a number and one of s, m, h, d)'
    })
  } else if (ms < MIN_REAP_AFTER_MS || ms > MAX_REAP_AFTER_MS) {
    ctx.addIssue({ code: 'custom', message: 'must be between 1m and 3650d' })
  }
})

/**
 * `temporary_storage:` in the user's settings: where Shell commands get their `TMPDIR`.
 * `managed` (the default): each command (foreground or background) its own private directory,
 * held by a lease, removed when it ends; a background reaper reclaims leases their owner
 * abandoned (a crash) once they are older than `command_reap_after`. `system`: every command
 * uses the system temp directory, as in a terminal; no leases are made and nothing is reaped.
 */
export const temporaryStorageSchema = z
  .object({
    mode: z.enum(['managed', 'system']).default('managed'),
    /** How long an abandoned lease is kept (for a look at what a crashed run left) before it goes. */
    command_reap_after: reapAfterSchema.default('24h')
  })
  .strict()
export type TemporaryStorageSettings = z.infer<typeof temporaryStorageSchema>
export const temporaryStorageDefaults: TemporaryStorageSettings = temporaryStorageSchema.parse({})

/** `command_reap_after` in milliseconds (the default's when the text is somehow not a span). */
export function reapAfterMs(settings: TemporaryStorageSettings): number {
  return parseSpan(settings.command_reap_after) ?? UNIT_MS.h * 24
}
