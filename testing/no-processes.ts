// The unit project's setup file (vitest.config.mts): a unit test starts no process. Shell jobs,
// git checkpoints, ripgrep, MCP servers, bubblewrap and the CLI as a child process are what the
// integration project (`*.integration.test.ts`) is for; keeping them out is what keeps
// `npm run test:unit` a quick loop. A file that starts one anyway fails, naming what it started.
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect } from 'vitest'
import { settingsSchema } from '../src/shared/settings'
import { SandboxService } from '../src/main/sandbox/sandbox-service'
import { fifoSource } from './fifo'
import { refuseProcesses, type ProcessGuard } from './process-guard'

// Up before the test file is imported (vitest runs a setup file ahead of each test file), so a
// process started at import or while collecting `describe` bodies is refused too. Every core
// proves its sandbox at start and a pass holds for the process (sandbox-service.ts), so it is
// proved here, once per worker, before processes are refused; likewise the FIFO that makeFifo
// links from (fifo.ts).
fifoSource()
await new SandboxService({ dataDir: os.tmpdir(), env: process.env }).prepare(
  settingsSchema.parse({})
)
let guard: ProcessGuard | null = refuseProcesses()

afterAll(() => {
  const refused = guard?.restore() ?? []
  guard = null
  if (refused.length === 0) return
  const file = path.basename(expect.getState().testPath ?? 'this file')
  const shown = [...new Set(refused)].slice(0, 5).map((line) => `  ${line}`)
  throw new Error(
    `${file} started ${refused.length} process(es), which a unit test does not:\n` +
      `${shown.join('\n')}\nRename it to ${file.replace(/\.test\.(tsx?)$/, '.integration.test.$1')} ` +
      '(run by `npm run test:integration`), or reach what it tests without a process.'
  )
})
