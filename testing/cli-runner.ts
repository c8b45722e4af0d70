// The built CLI, run as a person would, for tests: each command is its own process.
// Not shipped: only test files import it.
import { execFile, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import type { FakeModelServer } from './fake-model-server'

/** The repository's root. */
export const repoRoot = path.resolve(__dirname, '..')
/** The built CLI entry point, `out/main/cli.js`. */
export const cliPath = path.join(repoRoot, 'out/main/cli.js')

/** What a CLI process left behind: its exit code and everything it printed. */
export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

export interface CliRunOptions {
  /** `MECATL_HOME` for the process. */
  home: string
  /** More environment variables, over `PATH` and `MECATL_HOME`; nothing else is inherited. */
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** 30 s unless told. */
  timeoutMs?: number
}

/** Held while one test process builds, so vitest's workers never build into out/ at once. */
const buildLock = path.join(
  os.tmpdir(),
  `mecatl-build-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 12)}.lock`
)

/**
 * Builds the app (out/) when the sources are newer than it, as `npm run build` would, and
 * throws with the build's output when that fails. Slow on a cold tree: call it in `beforeAll`
 * with a long timeout. A worker that finds another building waits for it, then finds out/ fresh.
 */
export function ensureCliBuilt(): void {
  const built = spawnSync(
    process.execPath,
    [
      path.join(__dirname, 'with-lock.mjs'),
      buildLock,
      '--',
      process.execPath,
      path.join(repoRoot, 'scripts/ensure-built.mjs'),
      '--quiet'
    ],
    { cwd: repoRoot, encoding: 'utf8' }
  )
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr}${built.stdout}`)
}

/** A fresh directory under the system temp dir, named `mecatl-<name>-XXXXXX`, its real path. */
export async function makeTempDir(name: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), `mecatl-${name}-`)))
}

/** Runs `mecatl <args>` with the built CLI and resolves when it exits, however it exits. */
export function runCli(args: string[], options: CliRunOptions): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      {
        ...(options.cwd ? { cwd: options.cwd } : {}),
        env: { PATH: process.env.PATH, MECATL_HOME: options.home, ...options.env },
        timeout: options.timeoutMs ?? 30_000,
        // Large exports are part of what is tested; the 1 MiB default would kill the child.
        maxBuffer: 256 * 1024 * 1024
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0
        resolve({ code, stdout, stderr })
      }
    )
  })
}

/**
 * Writes a settings file whose only provider is the fake model in the OpenAI format, keyed by the
 * variable FAKE_KEY (run the CLI with `FAKE_KEY: 'sk-test'`), in the given approval mode.
 */
export async function writeFakeSettings(
  file: string,
  fake: FakeModelServer,
  mode: 'allow' | 'ask' = 'allow'
): Promise<string> {
  await writeFile(
    file,
    YAML.stringify({
      providers: [
        { id: 'fake', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
      ],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode }
    })
  )
  return file
}
