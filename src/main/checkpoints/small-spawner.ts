import { execFile, spawn, type ChildProcess } from 'node:child_process'

/** One program to run, as execFile takes it. */
export interface SpawnRequest {
  file: string
  args: readonly string[]
  cwd: string
  env: NodeJS.ProcessEnv
  input?: string | Buffer
  binary: boolean
  maxBuffer: number
}

/** How it ended: `code` as execFile's error has it (a number, or `ENOENT`), null on success. */
export interface SpawnResult {
  code: number | string | null
  message: string
  stdout: string | Buffer
  stderr: string | Buffer
}

/**
 * The helper: a bare Node process that runs what it is sent, so each program is forked from a
 * process of a few tens of megabytes. Forking copies the parent's page tables: from a main
 * process holding sessions (hundreds of megabytes) one git run costs 25 ms instead of 2, and a
 * checkpoint is several. It ends when its parent does (the channel closes).
 */
const HELPER = `
const { execFile } = require('node:child_process')
process.on('disconnect', () => process.exit(0))
process.send({ ready: true })
process.on('message', (m) => {
  const child = execFile(m.file, m.args, {
    cwd: m.cwd, env: m.env, maxBuffer: m.maxBuffer, encoding: m.binary ? 'buffer' : 'utf8'
  }, (error, stdout, stderr) => {
    const code = error ? (error.code ?? null) : null
    process.send({ id: m.id, failed: Boolean(error), code, message: error ? error.message : '', stdout, stderr })
  })
  if (m.input !== undefined) child.stdin.end(m.input)
})
`

interface Waiting {
  request: SpawnRequest
  resolve: (result: SpawnResult) => void
}

/** How long the helper may take to say it is up before it counts as unable to start. */
const READY_TIMEOUT_MS = 10_000

interface Reply {
  ready?: true
  id: number
  failed: boolean
  code: number | string | null
  message: string
  stdout: string | Buffer
  stderr: string | Buffer
}

/**
 * Runs programs through the helper, started on first use; where it cannot start or dies, what
 * was waiting (and what comes after) runs directly, as before: slower, never lost. A request the
 * helper had taken when it died runs again directly (git's plumbing is safe to repeat: the same
 * objects, the same ref updates).
 */
export class SmallSpawner {
  private helper: ChildProcess | null = null
  private broken = false
  private next = 0
  private readonly waiting = new Map<number, Waiting>()

  run(request: SpawnRequest): Promise<SpawnResult> {
    const helper = this.start()
    if (!helper) return runDirectly(request)
    return new Promise((resolve) => {
      const id = this.next++
      this.waiting.set(id, { request, resolve })
      // Held only while something waits: an idle helper never keeps the process alive.
      helper.channel?.ref()
      helper.send({ id, ...request, args: [...request.args] }, (error) => {
        if (error) this.fail()
      })
    })
  }

  /** Ends the helper (tests; the app's helper ends with the app). */
  stop(): void {
    this.helper?.kill()
  }

  private start(): ChildProcess | null {
    if (this.broken) return null
    if (this.helper) return this.helper
    try {
      const helper = spawn(process.execPath, ['-e', HELPER], {
        // ELECTRON_RUN_AS_NODE: under Electron the binary then runs as plain Node.
        env: { PATH: process.env.PATH, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced'
      })
      // A binary that will not run as Node (an Electron built without it) may start and never
      // answer: one that has not said it is up in time is given up, and git runs directly.
      const unready = setTimeout(() => {
        helper.kill()
        this.fail()
      }, READY_TIMEOUT_MS)
      unready.unref()
      helper.on('message', (reply: Reply) => {
        if (reply.ready) clearTimeout(unready)
        else this.answer(reply)
      })
      helper.on('error', () => this.fail())
      helper.on('exit', () => {
        clearTimeout(unready)
        this.fail()
      })
      helper.unref()
      helper.channel?.unref()
      this.helper = helper
      return helper
    } catch {
      this.broken = true
      return null
    }
  }

  private answer(reply: Reply): void {
    const waiting = this.waiting.get(reply.id)
    if (!waiting) return
    this.waiting.delete(reply.id)
    if (this.waiting.size === 0) this.helper?.channel?.unref()
    waiting.resolve({
      code: reply.failed ? (reply.code ?? -1) : null,
      message: reply.message,
      stdout: toOutput(reply.stdout, waiting.request.binary),
      stderr: toOutput(reply.stderr, false)
    })
  }

  /** The helper is gone: it is not started again, and what it held runs directly. */
  private fail(): void {
    if (this.broken) return
    this.broken = true
    this.helper = null
    const held = [...this.waiting.values()]
    this.waiting.clear()
    for (const { request, resolve } of held) void runDirectly(request).then(resolve)
  }
}

/** Structured clone turns a Buffer into a Uint8Array; text stays text. */
function toOutput(value: string | Buffer | Uint8Array, binary: boolean): string | Buffer {
  if (typeof value === 'string') return binary ? Buffer.from(value) : value
  const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return binary ? bytes : bytes.toString('utf8')
}

/** The same request run from this process. */
export function runDirectly(request: SpawnRequest): Promise<SpawnResult> {
  return new Promise((resolve) => {
    const child = execFile(
      request.file,
      [...request.args],
      {
        cwd: request.cwd,
        env: request.env,
        maxBuffer: request.maxBuffer,
        encoding: request.binary ? 'buffer' : 'utf8'
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (error.code ?? -1) : null,
          message: error ? error.message : '',
          stdout,
          stderr
        })
    )
    if (request.input !== undefined) child.stdin?.end(request.input)
  })
}
