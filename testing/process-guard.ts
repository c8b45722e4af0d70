// Refuses new processes in this process until restored: what keeps the unit project
// (no-processes.ts) free of Shell jobs, git, ripgrep, MCP servers, bubblewrap and CLI children.
// It replaces every way Node's child_process module starts a program, for `require` and for
// `import` alike (syncBuiltinESMExports), and node-pty's spawn.
import cp from 'node:child_process'
import { createRequire, syncBuiltinESMExports } from 'node:module'

const STARTERS = ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']
type Starter = (...args: unknown[]) => unknown

/** What a guard saw; `restore` puts back what it replaced and says what was refused. */
export interface ProcessGuard {
  restore(): string[]
}

export class ProcessRefused extends Error {}

export function refuseProcesses(): ProcessGuard {
  const childProcess = cp as unknown as Record<string, Starter>
  const pty = createRequire(import.meta.url)('node-pty') as Record<string, Starter>
  const refused: string[] = []
  const refuse =
    (name: string): Starter =>
    (...args: unknown[]) => {
      const what = `${String(args[0])}${Array.isArray(args[1]) ? ` ${args[1].join(' ')}` : ''}`
      refused.push(`${name}: ${what.slice(0, 120)}`)
      throw new ProcessRefused(`a unit test starts no process (${name} ${what.slice(0, 80)})`)
    }
  const replaced = new Map<string, Starter>()
  for (const name of STARTERS) {
    replaced.set(name, childProcess[name] as Starter)
    childProcess[name] = refuse(`child_process.${name}`)
  }
  syncBuiltinESMExports()
  const ptySpawn = pty.spawn as Starter
  pty.spawn = refuse('node-pty spawn')
  return {
    restore: () => {
      for (const [name, original] of replaced) childProcess[name] = original
      syncBuiltinESMExports()
      pty.spawn = ptySpawn
      return refused
    }
  }
}
