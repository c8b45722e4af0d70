// A project folder, a home directory and a data directory off /tmp (which the sandbox replaces
// with its own), and cores opened on them, for the tests of what a confined command can and
// cannot do. Not shipped: only test files import it.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import { createCore, type Core } from '../src/main/core'

export interface SandboxPlace {
  dir: string
  home: string
  workspace: string
  dataDir: string
  config: string
}

/** What the tests made, ended by `closeSandboxPlaces` (call it in afterEach). */
const opened: { cores: Core[]; dirs: string[] } = { cores: [], dirs: [] }

/** A fresh place under /var/tmp, named `mecatl-<name>-…`, with an empty home and project. */
export async function sandboxPlace(name: string): Promise<SandboxPlace> {
  const dir = await realpath(await mkdtemp(path.join('/var/tmp', `mecatl-${name}-`)))
  opened.dirs.push(dir)
  const home = path.join(dir, 'home')
  const workspace = path.join(dir, 'project')
  await mkdir(home)
  await mkdir(workspace)
  return { dir, home, workspace, dataDir: path.join(dir, 'data'), config: path.join(dir, 's.yaml') }
}

/**
 * A core in allow mode on `at` with these settings (over `permissions`), HOME the place's home,
 * and `env` over PATH alone: nothing else of the test's environment reaches it.
 */
export async function openSandboxCore(
  at: SandboxPlace,
  settings: Record<string, unknown> = {},
  env: Record<string, string | undefined> = {}
): Promise<Core> {
  await writeFile(at.config, YAML.stringify({ permissions: { mode: 'allow' }, ...settings }))
  const core = await createCore({
    dataDir: at.dataDir,
    configPath: at.config,
    host: 'cli',
    interactive: false,
    env: { PATH: process.env.PATH, HOME: at.home, ...env },
    jobs: { tempBase: at.dir }
  })
  opened.cores.push(core)
  return core
}

/** Disposes one core now (a test of what its end ends), so the clean-up does not again. */
export async function disposeSandboxCore(core: Core): Promise<void> {
  opened.cores.splice(opened.cores.indexOf(core), 1)
  await core.dispose()
}

export async function closeSandboxPlaces(): Promise<void> {
  for (const core of opened.cores.splice(0)) await core.dispose()
  for (const dir of opened.dirs.splice(0)) await rm(dir, { recursive: true, force: true })
}
