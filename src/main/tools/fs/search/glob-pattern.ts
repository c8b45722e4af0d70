import picomatch from 'picomatch'

/** Why a glob cannot be used, or null when it can: globs stay inside the folder they apply to. */
export function globProblem(pattern: string, what: 'pattern' | 'glob'): string | null {
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) {
    return `the ${what} \`${pattern}\` is an absolute path; give it relative to the project folder`
  }
  if (pattern.split('/').includes('..')) {
    return `the ${what} \`${pattern}\` uses \`..\`, which would leave the folder it applies to; give it relative to the project folder`
  }
  if (pattern.startsWith('!')) {
    return `the ${what} \`${pattern}\` is negated, which is not supported; describe the files to include`
  }
  return null
}

/** `./src/*.ts` and `src/*.ts` mean the same. */
export function normaliseGlob(pattern: string): string {
  let out = pattern
  while (out.startsWith('./')) out = out.slice(2)
  return out
}

/**
 * A matcher for paths relative to the folder the glob applies to. `*` and `?` stop at `/`,
 * `**` crosses directories, dotfiles match. With `anyDepth`, a glob without `/` matches file
 * names at any depth (`*.ts` finds `src/a.ts`), as ripgrep's `--glob` does.
 */
export function globMatcher(pattern: string, anyDepth: boolean): (relative: string) => boolean {
  return picomatch(pattern, { dot: true, basename: anyDepth && !pattern.includes('/') })
}

/** The directory a glob is rooted at (`src/**` → `src`) and the rest of it. */
export function splitGlob(pattern: string): { base: string; rest: string } {
  const scanned = picomatch.scan(pattern)
  if (scanned.isGlob) return { base: scanned.base, rest: scanned.glob }
  const slash = pattern.lastIndexOf('/')
  return slash === -1
    ? { base: '', rest: pattern }
    : { base: pattern.slice(0, slash), rest: pattern.slice(slash + 1) }
}

/**
 * The glob for ripgrep to pre-filter with, when its syntax is one both matchers read alike
 * (`*`, `?`, `**`, `[...]`, `{a,b}`); otherwise null and the results are filtered afterwards.
 */
export function ripgrepGlob(pattern: string): string | null {
  return /^[\w.\-/*?[\]{},]+$/.test(pattern) && !pattern.endsWith('/') ? pattern : null
}
