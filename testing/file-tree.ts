import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

const WORDS = [
  'core',
  'session',
  'chat',
  'render',
  'store',
  'model',
  'view',
  'index',
  'util',
  'config',
  'parser',
  'event',
  'queue',
  'worker',
  'cache',
  'router',
  'schema',
  'theme',
  'widget',
  'panel',
  'editor',
  'buffer',
  'stream',
  'socket',
  'auth',
  'token',
  'format',
  'layout',
  'icon',
  'menu'
]
const EXTENSIONS = ['ts', 'tsx', 'md', 'json', 'css', 'test.ts']

/** The shape of a generated project tree. */
export interface TreeShape {
  files: number
  /** Directories of files; each sits under one of `groups` top-level folders. */
  dirs: number
  groups?: number
}

/**
 * Writes a project tree of empty files with names like a real one's
 * (`packages/render-12/src/view/chat-store-3.tsx`), quickly: for the finder's tests and
 * benchmark, which need 100,000 files. Deterministic, so a benchmark's queries are the same from
 * one run to the next. Answers every file's path, relative, with `/`.
 */
export async function writeFileTree(root: string, shape: TreeShape): Promise<string[]> {
  const groups = shape.groups ?? 40
  const dirs: string[] = []
  for (let d = 0; d < shape.dirs; d++) {
    const group = `packages/${WORDS[(d % groups) % WORDS.length]}-${d % groups}`
    dirs.push(`${group}/src/${WORDS[(d * 7) % WORDS.length]}-${d}`)
  }
  const files: string[] = []
  for (let f = 0; f < shape.files; f++) {
    const dir = dirs[f % dirs.length]
    const a = WORDS[(f * 13) % WORDS.length]
    const b = WORDS[(f * 17 + 3) % WORDS.length]
    files.push(`${dir}/${a}-${b}-${f}.${EXTENSIONS[f % EXTENSIONS.length]}`)
  }
  await inBatches(dirs, 64, (dir) => mkdir(path.join(root, dir), { recursive: true }))
  await inBatches(files, 256, (file) => writeFile(path.join(root, file), ''))
  return files
}

async function inBatches<T>(
  items: T[],
  width: number,
  act: (item: T) => Promise<unknown>
): Promise<void> {
  let next = 0
  const lane = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await act(item)
  }
  await Promise.all(Array.from({ length: width }, lane))
}
