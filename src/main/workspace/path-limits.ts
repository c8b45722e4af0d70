import path from 'node:path'

/**
 * The longest path the system's calls take, in bytes with the final NUL (PATH_MAX): 4096 on
 * Linux, 1024 on macOS and the BSDs. A longer path cannot be opened, so a file there cannot
 * exist; directories can still be made one at a time below it, through descriptors, which is
 * how a Write to a path 2,100 folders deep used to leave them all behind. Windows takes long
 * paths through `\\?\`, so none is assumed there.
 */
export const PATH_MAX =
  process.platform === 'linux' ? 4096 : process.platform === 'win32' ? Infinity : 1024

/** The longest name of one file or folder, in bytes (NAME_MAX on every common file system). */
export const NAME_MAX = 255

/**
 * Why `absolute` cannot exist, as a message the model can act on, or null when it can: longer
 * than PATH_MAX, or with a name longer than NAME_MAX. `requested` is the path as asked for.
 */
export function lengthProblem(absolute: string, requested: string): string | null {
  const bytes = Buffer.byteLength(absolute)
  if (bytes >= PATH_MAX) {
    return `\`${abbreviated(requested)}\` is too long to exist: its full path is ${bytes.toLocaleString('en-US')} bytes, and this system allows at most ${(PATH_MAX - 1).toLocaleString('en-US')} (PATH_MAX); nothing was done. Use a shorter path`
  }
  const long = absolute.split(path.sep).find((name) => Buffer.byteLength(name) > NAME_MAX)
  if (long !== undefined) {
    return `\`${abbreviated(requested)}\` cannot exist: the name \`${abbreviated(long)}\` is ${Buffer.byteLength(long)} bytes, and a file or folder name may be at most ${NAME_MAX} (NAME_MAX); nothing was done. Use a shorter name`
  }
  return null
}

/** A path short enough to quote in a sentence: its start and its end. */
function abbreviated(text: string): string {
  const chars = [...text]
  if (chars.length <= 80) return text
  return `${chars.slice(0, 40).join('')}…${chars.slice(-30).join('')}`
}
