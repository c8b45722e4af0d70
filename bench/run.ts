import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { benchCheckpoints } from './checkpoints.bench'
import { benchDispatch } from './dispatch.bench'
import { benchFileFinder } from './file-finder.bench'
import { benchGrepGlob } from './grep-glob.bench'
import { benchJobs } from './jobs.bench'
import { benchMemory } from './memory.bench'
import { benchPromptCache } from './prompt-cache.bench'
import { benchRead } from './read.bench'
import { benchRpc } from './rpc.bench'
import { benchSandbox } from './sandbox.bench'
import { benchSessionLog } from './session-log.bench'
import { benchSessions } from './sessions.bench'

// Every figure is printed beside a baseline measured in the same run, as a ratio.
async function main(): Promise<void> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-bench-')))
  const workspace = path.join(dir, 'project')
  await mkdir(workspace)
  try {
    console.log(`Mecatl benchmarks (node ${process.version}, ${os.cpus().length} cores)\n`)
    await benchDispatch(workspace)
    await benchRpc(dir)
    await benchRead(workspace)
    await benchGrepGlob()
    await benchFileFinder(dir)
    await benchJobs(dir, workspace)
    await benchSandbox(dir, workspace)
    await benchMemory(dir, workspace)
    await benchSessions(dir, workspace)
    await benchSessionLog(dir)
    await benchCheckpoints(dir)
    await benchPromptCache(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

void main()
