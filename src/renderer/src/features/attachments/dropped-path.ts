/**
 * The project-relative path of a file dropped from the system's file manager, given where it
 * lives (`absolute`, from the desktop's preload) and the project folder; or the sentence saying
 * why it cannot be attached. The core checks the path against the folder's jail again (links,
 * `..`, what is not a file): this only turns a path inside the folder into the form it takes.
 */
export function droppedProjectPath(absolute: string, folder: string): string | { refused: string } {
  const slashes = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '')
  const file = slashes(absolute)
  const root = slashes(folder)
  if (!file) return { refused: 'That file has no path here; attach it with Attach file.' }
  // Windows drive letters compare without case; elsewhere a path is exact.
  const windows = /^[a-z]:\//i.test(root)
  const inside = windows
    ? file.toLowerCase().startsWith(`${root.toLowerCase()}/`)
    : file.startsWith(`${root}/`)
  if (!root || !inside) {
    return {
      refused: `${file.split('/').pop() || 'That file'} is not in the project folder; only files in it can be attached.`
    }
  }
  return file.slice(root.length + 1)
}
