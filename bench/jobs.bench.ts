import { spawn } from 'node:child_process'
import { open } from 'node:fs/promises'
import path from 'node:path'
import * as pty from 'node-pty'
import { JobManager } from '../src/main/jobs/job-manager'
import { benchJobMonitor } from './job-monitor.bench'
import { median, report, reportAmount } from './measure'

const MB = 1024 * 1024
export const OUTPUT_BYTES = 200 * MB
/** The job manager's memory over its baseline must stay under this, whatever a job prints. */
const MEMORY_TARGET_MB = 64

/**
 * Shell jobs: how fast 200 MB of output goes through a pty into the job manager, against `cat`
 * of the same bytes to /dev/null and into a pipe; how much memory the manager holds meanwhile;
 * and (in Chromium) how the window keeps up while the monitor follows such a job.
 */
export async function benchJobs(dir: string, workspace: string): Promise<void> {
  const file = path.join(dir, 'output-200mb.txt')
  // The pty turns each LF into CRLF, so the job prints one byte more per line.
  const expected = OUTPUT_BYTES + (await writeOutput(file))
  const catNull = await median(() => run('sh', ['-c', `cat '${file}' > /dev/null`]), 3)
  const catPipe = await median(() => runPiped('cat', [file]), 3)

  const rawPty = await median(() => runInPty(`cat '${file}'`, workspace), 3)

  const alone = await measureJobs(dir, workspace, file, expected, false)
  report(`jobs: 200 MB through a pty, nobody watching`, alone.ms, 'cat to /dev/null', catNull)
  report(
    `jobs: 200 MB through a pty, nobody watching`,
    alone.ms,
    'cat into a pipe (Node reads)',
    catPipe
  )
  report(
    `jobs: 200 MB through a pty, nobody watching`,
    alone.ms,
    'node-pty alone, bytes counted',
    rawPty
  )
  const watched = await measureJobs(dir, workspace, file, expected, true)
  report(`jobs: 200 MB through a pty, a viewer acking`, watched.ms, 'cat to /dev/null', catNull)
  for (const [label, result] of [
    ['nobody watching', alone],
    ['a viewer acking', watched]
  ] as const) {
    reportAmount(
      `jobs: peak RSS over baseline, ${label}`,
      result.peakMb,
      'MB',
      `the ${MEMORY_TARGET_MB} MB target`,
      MEMORY_TARGET_MB
    )
  }
  await benchJobMonitor(dir, workspace, file)
}

/** 200 MB of coloured log lines, like a chatty build; returns how many lines. */
async function writeOutput(file: string): Promise<number> {
  const lines: string[] = []
  for (let i = 0; lines.join('').length < MB; i++) {
    lines.push(
      `\x1b[2m12:00:${String(i % 60).padStart(2, '0')}\x1b[0m \x1b[36m[build]\x1b[0m compiled module ${i} of the project in \x1b[33m${i % 97} ms\x1b[0m — ok ✓\n`
    )
  }
  const block = Buffer.from(lines.join(''))
  const handle = await open(file, 'w')
  let newlines = 0
  try {
    for (let written = 0; written < OUTPUT_BYTES; written += block.length) {
      const part = block.subarray(0, Math.min(block.length, OUTPUT_BYTES - written))
      for (const byte of part) if (byte === 0x0a) newlines++
      await handle.write(part)
    }
  } finally {
    await handle.close()
  }
  return newlines
}

interface JobRun {
  ms: number
  peakMb: number
}

async function measureJobs(
  dir: string,
  workspace: string,
  file: string,
  expected: number,
  watched: boolean
): Promise<JobRun> {
  let jobs: JobManager | null = null
  jobs = new JobManager({
    tempBase: dir,
    events: {
      // A viewer that takes every batch in at once: the cost of decoding and batching alone.
      output: (jobId, batch) => jobs?.ack(jobId, 'bench', batch.data.length)
    }
  })
  const manager = jobs
  const runOnce = async (): Promise<number> => {
    const job = await manager.start({
      sessionId: 'bench',
      workspace,
      callId: null,
      command: `cat '${file}'`,
      background: true,
      timeoutMs: null
    })
    if (watched) manager.follow(job.id, 'bench')
    await job.finished
    if (job.ring.totalBytes !== expected) {
      throw new Error(`the job printed ${job.ring.totalBytes} bytes, not ${expected}`)
    }
    return 0
  }
  await runOnce()
  await settle()
  const baseline = process.memoryUsage().rss
  let peak = baseline
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 10)
  const ms = await median(runOnce, 3)
  clearInterval(sampler)
  await manager.dispose()
  return { ms, peakMb: (peak - baseline) / MB }
}

/** Lets garbage from a previous run go before a baseline is taken. */
async function settle(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  await new Promise((resolve) => setTimeout(resolve, 200))
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' })
    child.once('error', reject)
    child.once('exit', () => resolve())
  })
}

/** The floor: node-pty reading the same command with nothing done to its output. */
function runInPty(command: string, cwd: string): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0
    const term = pty.spawn('/bin/bash', ['-c', command], { cwd, encoding: null })
    term.onData((data: unknown) => (bytes += (data as Buffer).length))
    term.onExit(() => resolve(bytes))
  })
}

function runPiped(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] })
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length))
    child.once('error', reject)
    child.once('close', () => resolve(bytes))
  })
}
