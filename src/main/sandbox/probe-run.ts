import { spawn } from 'node:child_process'

/**
 * How a probe ended: its exit, and everything it printed (stdout and stderr together), or why it
 * could not run at all (`error`).
 */
export interface ProbeRun {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
  error: string | null
}

/**
 * Runs a short check of the sandbox (the self-test, the PID namespace probe) to its end: killed
 * after `timeoutMs`, with stdin closed and `env` when given (else this process's own).
 */
export function runProbe(
  file: string,
  args: readonly string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv }
): Promise<ProbeRun> {
  return new Promise((resolve) => {
    let output = ''
    let child
    const failed = (error: unknown): void =>
      resolve({
        code: null,
        signal: null,
        output,
        error: error instanceof Error ? error.message : String(error)
      })
    try {
      child = spawn(file, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(options.env ? { env: options.env } : {})
      })
    } catch (error) {
      failed(error)
      return
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.on('error', (error) => {
      clearTimeout(timer)
      failed(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, output, error: null })
    })
  })
}
