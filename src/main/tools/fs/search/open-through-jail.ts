import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { JailedDir, JailRefusal } from '../../../workspace/jailed-dir'

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants

/** As in JailedDir: on Linux a descriptor's `/proc/self/fd` entry names what it really opened. */
const FD_PATHS = process.platform === 'linux' && existsSync('/proc/self/fd')

/** Why a file may fail to open and be left out, as one deleted mid-search is. */
const LEFT_OUT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENXIO'])

/** A file of the tree, opened where its path says it is. */
export interface OpenedFile {
  /** Relative to the root, with `/`. */
  relative: string
  fd: number
  close(): Promise<void>
}

/**
 * Opens files of the tree under `root` (canonical; paths relative to it, with `/`) for reading,
 * each only if it is a regular file really at that path: none is reached through a link, so a
 * directory swapped for one since a walk listed it cannot lead outside. One that changed on the
 * way, is gone, or is not a regular file is left out; other errors are thrown, with nothing
 * left open.
 */
export async function openThroughJail(
  root: string,
  files: readonly string[]
): Promise<OpenedFile[]> {
  return FD_PATHS ? openByFdPath(root, files) : openByDirectory(root, files)
}

/**
 * Linux: open by path without following a last link, then ask the descriptor where it is. One
 * reached through a link anywhere on the way is elsewhere (the link's target); this is the
 * Node engine's own check (see file-searcher.ts), and a few system calls a file, done at once
 * because the asynchronous walk down through JailedDir costs several times more.
 */
export function openByFdPath(root: string, files: readonly string[]): OpenedFile[] {
  const opened: OpenedFile[] = []
  try {
    for (const relative of files) {
      const absolute = path.join(root, ...relative.split('/'))
      let fd: number
      try {
        // O_NONBLOCK: a FIFO put there since the walk must not hang the open; files ignore it.
        fd = openSync(absolute, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
      } catch (error) {
        if (leftOut(error)) continue
        throw error
      }
      let exact = false
      try {
        exact = readlinkSync(`/proc/self/fd/${fd}`) === absolute && fstatSync(fd).isFile()
      } finally {
        if (!exact) closeSync(fd)
      }
      if (exact) opened.push({ relative, fd, close: async () => closeSync(fd) })
    }
    return opened
  } catch (error) {
    for (const file of opened) closeSync(file.fd)
    throw error
  }
}

/** Elsewhere: each through its directory, opened and verified by JailedDir. */
export async function openByDirectory(
  root: string,
  files: readonly string[]
): Promise<OpenedFile[]> {
  const dirs = new Map<string, Promise<JailedDir>>()
  const dirOf = (parent: string): Promise<JailedDir> => {
    let dir = dirs.get(parent)
    if (!dir) {
      dir = JailedDir.openExact(parent === '' ? root : path.join(root, ...parent.split('/')))
      dirs.set(parent, dir)
    }
    return dir
  }
  const settled = await Promise.allSettled(
    files.map(async (relative): Promise<OpenedFile | null> => {
      const cut = relative.lastIndexOf('/')
      const dir = await dirOf(cut === -1 ? '' : relative.slice(0, cut))
      const handle = await dir.openFile(relative.slice(cut + 1), O_RDONLY | O_NONBLOCK)
      const regular = await handle.stat().then(
        (stats) => stats.isFile(),
        () => false
      )
      if (regular) return { relative, fd: handle.fd, close: () => handle.close() }
      await handle.close()
      return null
    })
  )
  await Promise.allSettled([...dirs.values()].map((dir) => dir.then((d) => d.close())))
  const opened: OpenedFile[] = []
  let failure: unknown = null
  for (const result of settled) {
    if (result.status === 'fulfilled') {
      if (result.value) opened.push(result.value)
    } else if (!leftOut(result.reason)) {
      failure ??= result.reason
    }
  }
  if (failure !== null) {
    await Promise.all(opened.map((file) => file.close()))
    throw failure
  }
  return opened
}

function leftOut(error: unknown): boolean {
  if (error instanceof JailRefusal) return true
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code !== undefined && LEFT_OUT.has(code)
}
