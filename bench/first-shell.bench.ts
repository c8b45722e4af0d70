import { fork } from 'node:child_process'
import { mkdir, mkdtemp } from 'node:fs/promises'
import path from 'node:path'
import { dispatch } from '../src/main/agent/dispatcher'
import { createCore, type Core } from '../src/main/core'
import { analyzeShell } from '../src/main/gate/shell-command'
import type { ToolOutput } from '../src/main/tools/tool'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { report, reportAmount } from './measure'

/** Fresh processes per kind of sample; the figures are medians over them. */
const PROCESSES = 7
/** Within this many milliseconds of the second call, the first counts as fast as the second. */
const TARGET_MS = 100
/** A line that exercises the parser as a model's usually do: a pipe, a list, a substitution. */
const LINE = 'ls -la | head -5 && echo "files: $(ls | wc -l)"'

/** The environment variable that makes the bundle this benchmark's child (see run.ts). */
export const FIRST_SHELL_CHILD = 'MECATL_BENCH_FIRST_SHELL'

/**
 * What one fresh process times. `calls`: whole Shell calls (the gate and the command, sandboxed
 * as configured); `parses`: the gate's parse alone, at the same moments; `parse-at-start`: the
 * gate's parse of a line that comes the moment the core has started.
 */
type ChildKind = 'calls' | 'parses' | 'parse-at-start'

interface ChildJob {
  kind: ChildKind
  dir: string
  workspace: string
}

/** Milliseconds: the first and second of a session, and the first of a second session. */
interface ChildTimes {
  first: number
  second: number
  otherSession: number
}

/**
 * The first Shell call of a session against the second, as a person feels it: each sample is a
 * fresh process that builds the core as the CLI, `serve` and the app do, waits for the sandbox's
 * self-test (the core starts it, and a first model round trip outlasts it), then times call 1
 * and call 2 and the first call of a second session in the same process. Other fresh processes
 * time the gate's parse alone at the same moments, and the parse of a line that comes the moment
 * the core is up (the worst case: it waits for the parser's warm-up).
 */
export async function benchFirstShell(dir: string, workspace: string): Promise<void> {
  const samples: Record<ChildKind, ChildTimes[]> = { calls: [], parses: [], 'parse-at-start': [] }
  // Interleaved, so a machine that slows down mid-run slows every kind alike.
  for (let i = 0; i < PROCESSES; i++) {
    for (const kind of ['calls', 'parses', 'parse-at-start'] as const) {
      samples[kind].push(await inFreshProcess({ kind, dir, workspace }))
    }
  }
  const call = medians(samples.calls)
  const parse = medians(samples.parses)
  const atStart = medians(samples['parse-at-start'])
  console.log(`first-shell: \`${LINE}\`, medians of ${PROCESSES} fresh processes`)
  report('first-shell: first Shell call of a session', call.first, 'the second call', call.second)
  reportAmount(
    'first-shell: first call minus second',
    call.first - call.second,
    'ms',
    `the ${TARGET_MS} ms target`,
    TARGET_MS
  )
  report(
    'first-shell: first call of a second session',
    call.otherSession,
    'the second call',
    call.second
  )
  report(
    'first-shell: the gate parse in the first call',
    parse.first,
    'the second call',
    call.second
  )
  report(
    'first-shell: the gate parse in the second call',
    parse.second,
    'the second call',
    call.second
  )
  report('first-shell: the parse as the core starts', atStart.first, 'the second call', call.second)
}

async function inFreshProcess(job: ChildJob): Promise<ChildTimes> {
  const child = fork(process.argv[1] ?? '', [], {
    env: { ...process.env, [FIRST_SHELL_CHILD]: JSON.stringify(job) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  return new Promise((resolve, reject) => {
    let times: ChildTimes | null = null
    child.on('message', (message) => (times = message as ChildTimes))
    child.on('error', reject)
    child.on('exit', (code) => {
      if (times) resolve(times)
      else reject(new Error(`the first-shell child exited with code ${code} and no times`))
    })
  })
}

/** The child's side: builds a core over its own data directory and times what `job` asks. */
export async function firstShellChild(job: ChildJob): Promise<void> {
  const home = await mkdtemp(path.join(job.dir, 'first-shell-'))
  const tempBase = path.join(home, 'jobs')
  await mkdir(tempBase)
  const core = await createCore({
    dataDir: home,
    host: 'cli',
    interactive: false,
    modeOverride: 'allow',
    workspace: job.workspace,
    jobs: { tempBase }
  })
  try {
    let times: ChildTimes
    if (job.kind === 'parse-at-start') {
      const first = await timed(() => analyzeShell(LINE))
      times = { first, second: Number.NaN, otherSession: Number.NaN }
    } else {
      await core.sandbox.prepare(core.settings.snapshot())
      const step = async (session: string): Promise<number> => {
        if (job.kind === 'parses') return timed(() => analyzeShell(LINE))
        // A turn puts its tools and gate together before the model asks for anything.
        const turn = await core.turns.forCall(job.workspace)
        return timed(() => shellCall(turn, job.workspace, session))
      }
      times = { first: await step('a'), second: await step('a'), otherSession: await step('b') }
    }
    process.send?.(times)
  } finally {
    await core.dispose()
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** One Shell call in the session named, through the turn's gate, the sandbox and the command. */
async function shellCall(
  { catalog, gate }: Awaited<ReturnType<Core['turns']['forCall']>>,
  workspace: string,
  sessionId: string
): Promise<ToolOutput> {
  const jail = new PathJail(workspace)
  const [result] = await dispatch(
    [{ id: `${sessionId}-call`, name: 'Shell', input: { command: LINE } }],
    {
      sessionId,
      catalog,
      gate,
      context: {
        sessionId,
        jail,
        reads: new ReadVersions(),
        signal: new AbortController().signal,
        provenance: () => ({ trust: 'trusted', sessionId, folder: jail.root })
      },
      onUpdate: () => undefined
    }
  )
  if (!result || result.output.isError) {
    throw new Error(`the Shell call failed: ${JSON.stringify(result?.output)}`)
  }
  return result.output
}

function medians(samples: readonly ChildTimes[]): ChildTimes {
  const median = (pick: (t: ChildTimes) => number): number => {
    const sorted = samples.map(pick).sort((a, b) => a - b)
    return sorted[Math.floor(sorted.length / 2)] ?? 0
  }
  return {
    first: median((t) => t.first),
    second: median((t) => t.second),
    otherSession: median((t) => t.otherSession)
  }
}
