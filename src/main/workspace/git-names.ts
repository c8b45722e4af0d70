// Code points HFS+ ignores in names, so `.g\u200cit` is `.git` there (git refuses them too).
const IGNORED_BY_HFS = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g

/**
 * Whether one path segment names `.git` as some filesystem would take it: in any case (macOS
 * and Windows ignore it), with trailing dots or spaces or an NTFS stream suffix (Windows drops
 * them), with characters HFS+ ignores, or as the Windows short name `GIT~1`. Matching these on
 * every system costs a question about a file literally named `.GIT`, never a missed `.git`.
 */
export function isGitName(segment: string): boolean {
  const name = segment
    .replace(IGNORED_BY_HFS, '')
    .replace(/:.*$/, '')
    .replace(/[. ]+$/, '')
  return /^\.git$/i.test(name) || /^git~\d+$/i.test(name)
}

/** Whether an absolute path is a `.git` folder (this repository's or a nested one) or inside one. */
export function inGitFolder(absolute: string): boolean {
  return absolute.split(/[\\/]/).some(isGitName)
}
