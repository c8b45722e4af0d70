import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile
} from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { outputText, type Tool, type ToolContext, type ToolOutput } from '../src/main/tools/tool'

/** A real project folder on disk, with a sibling folder outside it for escape attempts. */
export interface TestWorkspace {
  /** The project folder the jail is rooted at (canonical). */
  readonly root: string
  /** A folder next to the project folder, outside the jail. */
  readonly outside: string
  readonly ctx: ToolContext
  /** Calls a tool the way the dispatcher does: input parsed by its schema first. */
  run(tool: Tool, input: unknown): Promise<ToolOutput>
  cleanup(): Promise<void>
}

/** Creates a fresh temporary workspace and a session context for it (session `s1`). */
export async function createTestWorkspace(): Promise<TestWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-fs-')))
  const root = path.join(base, 'project')
  const outside = path.join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  const ctx: ToolContext = {
    sessionId: 's1',
    jail: new PathJail(root),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
  return {
    root,
    outside,
    ctx,
    run: async (tool, input) => tool.call(tool.inputSchema.parse(input), ctx),
    cleanup: () => rm(base, { recursive: true, force: true })
  }
}

/** The text of a tool result, for assertions. */
export function textOf(output: ToolOutput): string {
  return outputText(output.content)
}

/** Paths inside the project folder that all lead outside it, each a way to try to escape. */
export interface Escapes {
  /** `outside/secret.txt`, an existing file outside the project folder. */
  readonly secretFile: string
  /** `outside/new.txt`, which does not exist: a write through a dangling link would create it. */
  readonly missingFile: string
  /** Requests naming the outside file, keyed by how they try to get there. */
  readonly toFile: Readonly<Record<string, string>>
  /** Requests naming the missing outside file. */
  readonly toMissing: Readonly<Record<string, string>>
  /** Requests naming the outside directory. */
  readonly toDirectory: Readonly<Record<string, string>>
}

/** Plants `..` paths, absolute paths and symlinks (direct, dangling, chained) that lead outside. */
export async function plantEscapes(ws: TestWorkspace): Promise<Escapes> {
  const secretFile = path.join(ws.outside, 'secret.txt')
  const missingFile = path.join(ws.outside, 'new.txt')
  await writeFile(secretFile, 'secret\n')
  const link = (target: string, name: string): Promise<void> =>
    symlink(target, path.join(ws.root, name))
  await link(secretFile, 'link-out')
  await link('../outside/secret.txt', 'relative-link-out')
  await link(path.join(ws.root, 'chain-2'), 'chain-1')
  await link(secretFile, 'chain-2')
  await link(missingFile, 'dangling-out')
  await link('dangling-chain-2', 'dangling-chain-1')
  await link('../outside/new.txt', 'dangling-chain-2')
  await link(ws.outside, 'dir-out')
  return {
    secretFile,
    missingFile,
    toFile: {
      'dot-dot': '../outside/secret.txt',
      'dot-dot inside a path': 'sub/../../outside/secret.txt',
      absolute: secretFile,
      symlink: 'link-out',
      'relative symlink': 'relative-link-out',
      'symlink chain': 'chain-1',
      'file under a directory symlink': 'dir-out/secret.txt'
    },
    toMissing: {
      'dot-dot': '../outside/new.txt',
      absolute: missingFile,
      'dangling symlink': 'dangling-out',
      'dangling symlink chain': 'dangling-chain-1',
      'new file under a directory symlink': 'dir-out/new.txt'
    },
    toDirectory: {
      'dot-dot': '..',
      'dot-dot to a sibling': '../outside',
      absolute: ws.outside,
      'directory symlink': 'dir-out',
      root: '/'
    }
  }
}

/** Every file under a folder with its content, links as `-> target`: to show nothing changed. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name)
    const key = path.relative(dir, full)
    if (entry.isSymbolicLink()) out[key] = `-> ${await readlink(full)}`
    else if (entry.isFile()) out[key] = await readFile(full, 'utf8')
    else if (entry.isDirectory()) out[key] = '/'
  }
  return out
}
