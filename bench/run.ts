import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { benchCheckpoints } from './checkpoints.bench'
import { benchDispatch } from './dispatch.bench'
import { benchFileFinder } from './file-finder.bench'
import { benchFirstShell, FIRST_SHELL_CHILD, firstShellChild } from './first-shell.bench'
import { benchFirstPaint } from './first-paint.bench'
import { benchGrepGlob } from './grep-glob.bench'
import { benchJobs } from './jobs.bench'
import { benchMemory } from './memory.bench'
import { benchPromptCache } from './prompt-cache.bench'
import { benchRead } from './read.bench'
import { benchRpc } from './rpc.bench'
import { benchSandbox } from './sandbox.bench'
import { benchSessionLog } from './session-log.bench'
import { benchSessions } from './sessions.bench'
import { benchStartup } from './startup.bench'
import { benchSoak } from './soak.bench'

/** Every benchmark by the name `npm run bench -- <name>…` picks it with. */
const BENCHES: Record<string, (dir: string, workspace: string) => Promise<void>> = {
  dispatch: (_dir, workspace) => benchDispatch(workspace),
  rpc: (dir) => benchRpc(dir),
  read: (_dir, workspace) => benchRead(workspace),
  'grep-glob': () => benchGrepGlob(),
  'file-finder': (dir) => benchFileFinder(dir),
  jobs: (dir, workspace) => benchJobs(dir, workspace),
  sandbox: (dir, workspace) => benchSandbox(dir, workspace),
  memory: (dir, workspace) => benchMemory(dir, workspace),
  sessions: (dir, workspace) => benchSessions(dir, workspace),
  'session-log': (dir) => benchSessionLog(dir),
  checkpoints: (dir) => benchCheckpoints(dir),
  'prompt-cache': (dir) => benchPromptCache(dir),
  'first-shell': (dir, workspace) => benchFirstShell(dir, workspace),
  startup: (dir, workspace) => benchStartup(dir, workspace),
  'first-paint': (dir, workspace) => benchFirstPaint(dir, workspace),
  soak: (dir) => benchSoak(dir)
}

// Every figure is printed beside a baseline measured in the same run, as a ratio. With names
// given, only those run (in the order above); with none, all of them.
async function main(names: readonly string[]): Promise<void> {
  const unknown = names.filter((name) => !(name in BENCHES))
  if (unknown.length > 0) {
    console.error(
      `no benchmark named ${unknown.join(', ')}; the benchmarks are: ${Object.keys(BENCHES).join(', ')}`
    )
    process.exit(2)
  }
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-bench-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  try {
    console.log(`Mecatl benchmarks (node ${process.version}, ${os.cpus().length} cores)\n`)
    for (const [name, bench] of Object.entries(BENCHES)) {
      if (names.length === 0 || names.includes(name)) await bench(dir, workspace)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

// A benchmark that times a fresh process starts this bundle again as its child, saying so in the
// environment; the child times what it was asked and reports to its parent.
const childJob = process.env[FIRST_SHELL_CHILD]
if (childJob) void firstShellChild(JSON.parse(childJob))
else void main(process.argv.slice(2))
