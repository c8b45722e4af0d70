// The CLI run inside the test's own process, for tests that use a command only to reach the
// core: the command line, exit code and output are the same as the built CLI's, without a
// process start (about 0.7 s of loading modules each). The true end-to-end tests (signals,
// stdin, output flushed through a pipe, a killed process) keep cli-runner.ts's runCli.
// Not shipped: only test files import it.
import { format } from 'node:util'
import { mecatl } from '../src/main/cli/main'
import type { CliResult, CliRunOptions } from './cli-runner'

let busy = false

/**
 * Runs `mecatl <args>` in this process with the environment, working folder and output of a
 * process of its own: only `PATH`, `MECATL_HOME` and `options.env` are set, and what it prints
 * on stdout and stderr (console and stream writes alike) is answered, not shown. One at a time:
 * the environment and working folder are the process's own while it runs.
 */
export async function runCliInProcess(args: string[], options: CliRunOptions): Promise<CliResult> {
  if (busy) throw new Error('runCliInProcess: one command at a time (it swaps process.env)')
  busy = true
  const saved = {
    env: process.env,
    cwd: process.cwd(),
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    out: Object.getOwnPropertyDescriptor(process.stdout, 'write'),
    err: Object.getOwnPropertyDescriptor(process.stderr, 'write')
  }
  let stdout = ''
  let stderr = ''
  const toOut = (...parts: unknown[]): void => void (stdout += `${format(...parts)}\n`)
  const toErr = (...parts: unknown[]): void => void (stderr += `${format(...parts)}\n`)
  const writer =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const done = rest.find((arg): arg is () => void => typeof arg === 'function')
      done?.()
      return true
    }
  process.env = { PATH: saved.env.PATH, MECATL_HOME: options.home, ...options.env }
  if (options.cwd) process.chdir(options.cwd)
  console.log = console.info = toOut
  console.warn = console.error = toErr
  process.stdout.write = writer((text) => (stdout += text)) as typeof process.stdout.write
  process.stderr.write = writer((text) => (stderr += text)) as typeof process.stderr.write
  try {
    const code = await mecatl(args)
    return { code, stdout, stderr }
  } catch (error) {
    // As the entry reports a command that threw.
    toErr('mecatl: unexpected failure:', error)
    return { code: 1, stdout, stderr }
  } finally {
    process.env = saved.env
    process.chdir(saved.cwd)
    Object.assign(console, {
      log: saved.log,
      info: saved.info,
      warn: saved.warn,
      error: saved.error
    })
    restore(process.stdout, saved.out)
    restore(process.stderr, saved.err)
    busy = false
  }
}

/** Puts a stream's own `write` back as it was, or takes ours away to leave its prototype's. */
function restore(stream: NodeJS.WriteStream, own: PropertyDescriptor | undefined): void {
  if (own) Object.defineProperty(stream, 'write', own)
  else delete (stream as { write?: unknown }).write
}
