import { lstatSync, readdirSync, readlinkSync } from 'node:fs'
import path from 'node:path'

/**
 * The machine's own software, shown read-only to every confined command: programs, libraries and
 * system configuration. Everything else of the disk (homes, /var, /srv, /mnt, /media, /run,
 * other projects) is not there at all, nor is /sys: the machine's devices, network interfaces and
 * firmware identifiers are nothing a build needs (tools that count processors fall back to
 * /proc), and each of its mounts is one more for every command to pay for.
 */
export const SYSTEM_DIRS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix',
  '/snap',
  '/gnu'
]

/**
 * Where root keeps what only root may read. A command confined as root has no capabilities,
 * yet it is still the owner of root's files: a `0600 root` file such as /etc/shadow or a TLS key
 * under /etc/ssl/private would be readable inside. In these folders, what another user could not
 * read is hidden from a command run as root too.
 */
const ROOT_SCANNED: readonly string[] = ['/etc', '/opt']

/** How long a scan of root's files stands before it is made again. */
const ROOT_SCAN_MS = 10_000

/** The system as a confined command sees it. */
export interface SystemView {
  /** Folders bound read-only at their own path. */
  dirs: string[]
  /** Links remade inside as they are outside (`/bin` → `usr/bin` on merged-/usr systems). */
  links: { at: string; target: string }[]
  /** Inside those folders, what only root can read (as root), and anything not a file or folder. */
  hidden: string[]
}

let rootScan: { at: number; hidden: string[] } | null = null

/** The system view for a command run by `uid` (root's is narrowed, see ROOT_SCANNED). */
export function systemView(uid: number, now: number = Date.now()): SystemView {
  const dirs: string[] = []
  const links: SystemView['links'] = []
  for (const dir of SYSTEM_DIRS) {
    try {
      const stat = lstatSync(dir)
      if (stat.isSymbolicLink()) links.push({ at: dir, target: readlinkSync(dir) })
      else if (stat.isDirectory()) dirs.push(dir)
    } catch {
      // Not on this system.
    }
  }
  if (uid !== 0) return { dirs, links, hidden: [] }
  if (!rootScan || now - rootScan.at > ROOT_SCAN_MS) {
    const hidden: string[] = []
    for (const dir of ROOT_SCANNED) if (dirs.includes(dir)) scanRootOnly(dir, hidden)
    rootScan = { at: now, hidden }
  }
  return { dirs, links, hidden: rootScan.hidden }
}

/**
 * Collects under `dir` what an ordinary user could not read: a file without read permission for
 * others, a folder others cannot list and enter (not descended into), and anything that is not a
 * file, folder or link (a socket, a FIFO, a device). Links are left alone: what they point at is
 * judged where it lives, and a link out of the system folders leads nowhere inside.
 */
export function scanRootOnly(dir: string, hidden: string[]): void {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    hidden.push(dir)
    return
  }
  for (const name of names) {
    const at = path.join(dir, name)
    let stat
    try {
      stat = lstatSync(at)
    } catch {
      continue
    }
    if (stat.isSymbolicLink()) continue
    if (stat.isDirectory()) {
      if ((stat.mode & 0o005) !== 0o005) hidden.push(at)
      else scanRootOnly(at, hidden)
    } else if (!stat.isFile() || (stat.mode & 0o004) === 0) {
      hidden.push(at)
    }
  }
}
