import { z } from 'zod'
import { folderTrustSchema } from '../domain'
import { folderPath, none, type CallSpec } from './call-spec'

/** Project folders: the recent list, opening one, and whether its authors are trusted. */
export const calls = {
  'workspace.recent': {
    input: none,
    output: z.object({ folders: z.array(z.object({ path: z.string(), openedAt: z.number() })) })
  },
  'workspace.open': {
    input: z.object({ path: folderPath }).strict(),
    // `trust` is `unknown` until the person is asked whether they trust the folder's authors.
    output: z.object({ path: z.string(), openedElsewhere: z.boolean(), trust: folderTrustSchema })
  },
  'workspace.setTrust': {
    input: z.object({ path: folderPath, trust: z.enum(['trusted', 'untrusted']) }).strict(),
    output: z.object({ path: z.string(), trust: folderTrustSchema })
  },
  'workspace.pickFolder': {
    input: none,
    output: z.object({ path: z.string().nullable() })
  }
} satisfies Record<string, CallSpec>

export const events = {} satisfies Record<string, z.ZodType>
