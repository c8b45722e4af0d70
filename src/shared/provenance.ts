import { z } from 'zod'

/**
 * Whether stored text may carry someone else's words: a memory revision, a skill draft. Text a
 * conversation writes after untrusted input entered it may be that input's words laundered, so
 * reading it back later is untrusted input, in any session of any folder.
 *
 * - `trusted`: written by a person, or in a conversation that held no untrusted input.
 * - `untrusted-input`: the conversation held untrusted input (a web page, an MCP tool, another
 *   note that was untrusted).
 * - `untrusted-folder`: written in a folder whose authors the person did not trust.
 * - `unknown`: written before Mecatl kept this, by a session no longer recorded; untrusted, as
 *   nobody can say otherwise.
 */
export const provenanceTrustSchema = z.enum([
  'trusted',
  'untrusted-input',
  'untrusted-folder',
  'unknown'
])
export type ProvenanceTrust = z.infer<typeof provenanceTrustSchema>

/** Where stored text came from, kept with it as data (never worked out when it is read). */
export const provenanceSchema = z.object({
  trust: provenanceTrustSchema,
  /** The session whose conversation wrote it; null for a person in the window, or not known. */
  sessionId: z.string().nullable(),
  /** The project folder that session worked in; null when not known. */
  folder: z.string().nullable()
})
export type Provenance = z.infer<typeof provenanceSchema>

/** What a person writes in the window: their own words. */
export const personProvenance: Provenance = { trust: 'trusted', sessionId: null, folder: null }

/** Whether reading the text back brings untrusted input into a conversation. */
export function isUntrusted(provenance: Provenance): boolean {
  return provenance.trust !== 'trusted'
}

// Known to be untrusted says more than not known; either says more than trusted.
const rank: Record<ProvenanceTrust, number> = {
  trusted: 0,
  unknown: 1,
  'untrusted-input': 2,
  'untrusted-folder': 3
}

/** The less trusted of two: text made of both (an undo bringing back older words) is as bad. */
export function lessTrusted(a: Provenance, b: Provenance): Provenance {
  return rank[b.trust] > rank[a.trust] ? b : a
}

/**
 * Where untrusted text came from, in words for the model and the person: "written in a
 * conversation that held untrusted input (session 42, /home/me/app)". Null when it is trusted.
 */
export function provenanceWords(provenance: Provenance): string | null {
  const where = [
    provenance.sessionId === null ? null : `session ${provenance.sessionId}`,
    provenance.folder
  ].filter((part) => part !== null)
  const at = where.length > 0 ? ` (${where.join(', ')})` : ''
  switch (provenance.trust) {
    case 'trusted':
      return null
    case 'untrusted-input':
      return `written in a conversation that held untrusted input${at}`
    case 'untrusted-folder':
      return `written in a folder whose authors were not trusted${at}`
    case 'unknown':
      return `written before Mecatl kept where text came from, by a session no longer recorded${at}`
  }
}
