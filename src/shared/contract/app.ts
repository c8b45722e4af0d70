import { z } from 'zod'
import { none, type CallSpec } from './call-spec'

/** The app itself: where it runs, and desktop notifications. */
export const calls = {
  'app.info': {
    input: none,
    output: z.object({
      mode: z.enum(['electron', 'browser', 'cli']),
      version: z.string(),
      dataDir: z.string(),
      canPickFolder: z.boolean(),
      canStoreSecrets: z.boolean(),
      /** Where typed keys are kept when a file (0600) keeps them, not the OS keychain. */
      keyFile: z.string().nullable().optional(),
      workspace: z.string().nullable()
    })
  },
  /**
   * A desktop notification about a session, shown by the desktop app (browser mode answers
   * `shown: false`: the page uses the browser's own). A click focuses the window that asked and
   * emits `notification.clicked` with the tag.
   */
  'app.notify': {
    input: z
      .object({
        title: z.string().max(300),
        body: z.string().max(1000),
        tag: z.string().min(1).max(300)
      })
      .strict(),
    output: z.object({ shown: z.boolean() })
  }
} satisfies Record<string, CallSpec>

export const events = {
  /** The person clicked the desktop notification shown with this tag (see `app.notify`). */
  'notification.clicked': z.object({ tag: z.string() })
} satisfies Record<string, z.ZodType>
