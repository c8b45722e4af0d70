// `mecatl serve` (the built CLI's browser mode) in a process of its own, so what its memory
// figures say is the server's alone: not the benchmark's, nor the fake model's, nor Playwright's.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { connectInspector, inspectorLine } from './node-inspector'

/** A running `mecatl serve`. */
export interface ServeProcess {
  pid: number
  /** The browser-mode address it printed, token included; `folder=` opens a project. */
  url: string
  /** Its resident memory in MB, or null once it has gone. */
  residentMb(): number | null
  /** Its JS heap after a forced collection, through its inspector (see node-inspector.ts). */
  heapMb(): Promise<number>
  /** Writes a heap snapshot of it to `file`. */
  heapSnapshot(file: string): Promise<void>
  /** What it printed, for a failure's message. */
  log(): string
  /** SIGTERM to its process group (it and the jobs it started), SIGKILL after 5 s. */
  stop(): Promise<void>
}

const readyLine = /Mecatl browser mode: (http:\/\/127\.0\.0\.1:\d+\/\S*)/

/**
 * Starts the built CLI's `serve` on a free port, with `home` as MECATL_HOME and `settingsFile`
 * as its settings, its inspector open on loopback for the heap figures, and resolves once it
 * prints its address.
 */
export async function startServe(
  home: string,
  settingsFile: string,
  env: Record<string, string> = {}
): Promise<ServeProcess> {
  const cli = path.resolve('out', 'main', 'cli.js')
  const args = ['--inspect=127.0.0.1:0', cli, 'serve', '--port', '0', '--config', settingsFile]
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MECATL_HOME: home, ...env },
    // Its own process group, so stopping it stops the commands and jobs it started too.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  const started = new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mecatl serve printed no address:\n${out}`)),
      30_000
    )
    const read = (chunk: string): void => {
      out += chunk
      const url = readyLine.exec(out)?.[1]
      const inspector = inspectorLine.exec(out)?.[1]
      if (url === undefined || inspector === undefined) return
      clearTimeout(timer)
      resolve([url, inspector])
    }
    child.stdout.setEncoding('utf8').on('data', read)
    child.stderr.setEncoding('utf8').on('data', read)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(
        new Error(`mecatl serve exited (${String(code ?? signal)}) before it was ready:\n${out}`)
      )
    })
  })
  const [url, inspectorUrl] = await started.catch(async (error: unknown) => {
    await stopGroup(child)
    throw error
  })
  const inspector = await connectInspector(inspectorUrl)
  const pid = child.pid as number
  return {
    pid,
    url,
    residentMb: () => residentMb(pid),
    heapMb: () => inspector.heapMb(),
    heapSnapshot: (file) => inspector.snapshot(file),
    log: () => out,
    stop: async () => {
      inspector.close()
      await stopGroup(child)
    }
  }
}

/** Resident memory of `pid` in MB from /proc (Linux), else `ps` (macOS); null once it has gone. */
export function residentMb(pid: number): number | null {
  try {
    if (existsSync('/proc/self/status')) {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
      return match ? Number(match[1]) / 1024 : null
    }
    const kb = Number(
      spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout
    )
    return kb > 0 ? kb / 1024 : null
  } catch {
    return null
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const pid = child.pid
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-pid, name)
    } catch {
      // Already gone.
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
