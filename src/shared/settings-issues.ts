import type { z } from 'zod'

/** One validation problem, with the dotted path of the setting it is about. */
export interface SettingsIssue {
  path: string
  message: string
  /** 1-based, where the settings file's text shows the problem (when it could be found). */
  line?: number
  column?: number
  /**
   * The path as keys and indexes, for finding it in the file; for an unknown key, the key itself
   * is the last segment.
   */
  segments?: (string | number)[]
}

/**
 * A zod failure as issues a person can act on: one per unknown key (with "did you mean" when a
 * known key is close), and plainer words for a missing setting. `schema` is what was parsed, so
 * the known keys at a path can be offered.
 */
export function describeIssues(error: z.ZodError, schema?: z.ZodType): SettingsIssue[] {
  const issues: SettingsIssue[] = []
  for (const issue of error.issues) {
    const segments = issue.path.filter(
      (s): s is string | number => typeof s === 'string' || typeof s === 'number'
    )
    if (issue.code === 'unrecognized_keys') {
      const known = schema ? knownKeys(schema, segments) : []
      for (const key of issue.keys) {
        const near = closestName(key, known)
        issues.push({
          path: dotted([...segments, key]),
          segments: [...segments, key],
          message: `"${key}" is not a setting here${near ? `; did you mean "${near}"?` : known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`
        })
      }
      continue
    }
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message)
    issues.push({
      path: dotted(segments),
      segments,
      message: missing
        ? `is required (${issue.message.replace(/^Invalid input: /, '')})`
        : issue.message
    })
  }
  return issues
}

function dotted(segments: readonly (string | number)[]): string {
  return segments.map(String).join('.') || '(top level)'
}

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  innerType?: z.ZodType
  element?: z.ZodType
  options?: z.ZodType[]
  in?: z.ZodType
  out?: z.ZodType
  valueType?: z.ZodType
  getter?: () => z.ZodType
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def
}

/** Wrappers that stand for the schema inside them (a default, an optional, a pipe's input…). */
function inner(def: Def): z.ZodType[] {
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return def.innerType ? [def.innerType] : []
    case 'pipe':
      return def.in ? [def.in] : []
    case 'lazy':
      return def.getter ? [def.getter()] : []
    case 'union':
      return def.options ?? []
    default:
      return []
  }
}

/** The object schemas that `schema` stands for, through wrappers and unions. */
function objectsOf(schema: z.ZodType, depth = 0): Def[] {
  const def = defOf(schema)
  if (def.type === 'object') return [def]
  if (depth > 20) return []
  return inner(def).flatMap((s) => objectsOf(s, depth + 1))
}

/** What a path step leads to inside `schema`: an object's key, an array's item, a record's value. */
function step(schema: z.ZodType, segment: string | number, depth = 0): z.ZodType[] {
  const def = defOf(schema)
  if (def.type === 'array') return def.element ? [def.element] : []
  if (def.type === 'record') return def.valueType ? [def.valueType] : []
  if (def.type === 'object') {
    const next = typeof segment === 'string' ? def.shape?.[segment] : undefined
    return next ? [next] : []
  }
  if (depth > 20) return []
  return inner(def).flatMap((s) => step(s, segment, depth + 1))
}

/** The keys an object at `path` of `schema` may have (all variants' keys for a union). */
export function knownKeys(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let here: z.ZodType[] = [schema]
  for (const segment of path) here = here.flatMap((s) => step(s, segment))
  const keys = new Set<string>()
  for (const object of here.flatMap((s) => objectsOf(s))) {
    for (const key of Object.keys(object.shape ?? {})) keys.add(key)
  }
  return [...keys].sort()
}

/** The candidate a misspelt name most likely meant, if one is close enough to suggest. */
export function closestName(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  const lower = word.toLowerCase()
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  // A third of the word's length, at least one edit: "shel" → "shell", never "mcp" → "mode".
  const allowed = Math.max(1, Math.floor(word.length / 3))
  return best !== null && bestDistance <= allowed ? best : null
}

/** Edits from one word to the other, a swap of neighbours counting as one ("mdoe" → "mode"). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1)
      }
      const row = rows[i]
      if (row) row[j] = best
    }
  }
  return at(a.length, b.length)
}
