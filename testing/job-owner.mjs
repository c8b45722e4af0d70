// A Mecatl that is about to be killed, for tests only: it runs one shell command as a
// foreground job of the real JobManager (the TypeScript source, loaded through Vite's module
// runner), prints `started` once the job runs, and then waits for its SIGKILL. Started with
// this Node: `node job-owner.mjs <folder> <command>`, from the repository's root.
import { fileURLToPath } from 'node:url'
import { runnerImport } from 'vite'

const [folder, command] = process.argv.slice(2)
const source = fileURLToPath(new URL('../src/main/jobs/job-manager.ts', import.meta.url))
const { module } = await runnerImport(source)
const jobs = new module.JobManager({ tempBase: folder })
await jobs.start({
  sessionId: 's1',
  workspace: folder,
  callId: null,
  command,
  background: false,
  timeoutMs: null
})
process.stdout.write('started\n')
setInterval(() => undefined, 60_000)
