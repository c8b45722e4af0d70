// A whole core over a temp directory and the scripted model server, for tests that run real turns.
// Not shipped: only test files import it.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'
import YAML from 'yaml'
import { startFakeModelServer, type FakeModelServer, type Step } from './fake-model-server'
import type { EventFrame } from '../src/shared/contract/bridge'
import { createCore, type Core, type CoreOptions } from '../src/main/core'
import { createMemoryPair, type RpcClient } from '../src/main/rpc/memory-transport'
import { callOnce } from '../src/main/agent/single-call'
import type { FolderTrust } from '../src/shared/domain'
import { WorkspaceTrust } from '../src/main/workspace/workspace-trust'
import type { ToolOutput } from '../src/main/tools/tool'

/**
 * How the core reaches the fake model: `openai` and `anthropic` speak that wire format with the
 * key `sk-test` (read from `FAKE_KEY`, which the server requires); `openai-compatible` is keyless.
 */
export type FakeFormat = 'openai' | 'anthropic' | 'openai-compatible'

export interface CoreHarnessOptions {
  /** Names the temp directory: `mecatl-<name>-XXXXXX`. */
  name: string
  /** The model's first steps; more can be set later with `fake.setScript`. */
  script?: Step[]
  /** `openai` unless told. */
  format?: FakeFormat
  /** `permissions.mode` in the settings file; `allow` unless told. */
  permissions?: 'allow' | 'ask'
  /** More top-level keys for the settings file, over the provider and permissions. */
  settings?: Record<string, unknown>
  /** Files written into the workspace, by relative name. */
  files?: Record<string, string>
  /**
   * What the person answered for the workspace: `trusted` unless told, so the folder's files are
   * the person's own, as in a window where they said so (`unknown`: never asked).
   */
  trust?: FolderTrust
  /** Creates `<dir>/user` and passes it to the core as the user's own directory. */
  userDir?: boolean
  /** Passed to `createCore` over the defaults (`host: 'cli'`, not interactive). */
  core?: Partial<CoreOptions>
}

export interface CoreHarness {
  /** The temp directory holding everything below; removed when the test finishes. */
  dir: string
  /** `<dir>/project`, created, with `files` in it. */
  workspace: string
  /** `<dir>/settings.yaml` */
  config: string
  /** `<dir>/home`, the core's data directory. */
  home: string
  /** `<dir>/user` (with `userDir: true` only). */
  userDir: string
  fake: FakeModelServer
  core: Core
  /** An in-memory RPC client on `core`, as the window talks to it. */
  client: RpcClient
  /** Every event frame `client` has received, in order (restarts included). */
  events: EventFrame[]
  /** Disposes the core and starts a new one over the same data and settings, as after a restart. */
  restart(): Promise<void>
}

/** The settings-file provider entry for the fake server in the given format. */
export function fakeProvider(fake: FakeModelServer, format: FakeFormat): Record<string, string> {
  switch (format) {
    case 'openai':
      return { id: 'fake', kind: 'openai', base_url: fake.openaiBaseUrl, api_key_env: 'FAKE_KEY' }
    case 'anthropic':
      return {
        id: 'fake',
        kind: 'anthropic',
        base_url: fake.anthropicBaseUrl,
        api_key_env: 'FAKE_KEY'
      }
    case 'openai-compatible':
      return { id: 'fake', kind: 'openai-compatible', base_url: fake.openaiBaseUrl }
  }
}

/**
 * Starts the fake model server and a core configured to use it, in a fresh temp directory, with an
 * RPC client that records every event. Everything is closed and removed when the current test
 * finishes, so it must be called inside a test.
 */
export async function startCoreHarness(options: CoreHarnessOptions): Promise<CoreHarness> {
  const format = options.format ?? 'openai'
  const keyed = format !== 'openai-compatible'
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), `mecatl-${options.name}-`)))
  const workspace = path.join(dir, 'project')
  const home = path.join(dir, 'home')
  const config = path.join(dir, 'settings.yaml')
  const userDir = path.join(dir, 'user')
  await mkdir(workspace)
  if (options.userDir) await mkdir(userDir)
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await writeFile(path.join(workspace, name), content)
  }
  const fake = await startFakeModelServer({
    script: options.script,
    ...(keyed ? { requireKey: 'sk-test' } : {})
  })
  // Registered before the core starts, so a core that fails to start still leaves nothing behind.
  const started: { harness?: CoreHarness } = {}
  onTestFinished(async () => {
    started.harness?.client.close()
    await started.harness?.core.dispose()
    await fake.close()
    await rm(dir, { recursive: true, force: true })
  })
  await writeFile(
    config,
    YAML.stringify({
      providers: [fakeProvider(fake, format)],
      default_model: { provider: 'fake', model: 'fake-model' },
      permissions: { mode: options.permissions ?? 'allow' },
      ...options.settings
    })
  )
  const trust = options.trust ?? 'trusted'
  if (trust !== 'unknown') await new WorkspaceTrust(home).set(workspace, trust)
  const events: EventFrame[] = []
  const connect = async (): Promise<{ core: Core; client: RpcClient }> => {
    const core = await createCore({
      dataDir: home,
      configPath: config,
      host: 'cli',
      interactive: false,
      ...(keyed ? { env: { FAKE_KEY: 'sk-test' } } : {}),
      ...(options.userDir ? { userDir } : {}),
      ...options.core
    })
    const client = createMemoryPair(core.router, core.hub)
    client.subscribe((frame) => events.push(frame))
    return { core, client }
  }
  const harness: CoreHarness = {
    dir,
    workspace,
    config,
    home,
    userDir,
    fake,
    events,
    ...(await connect()),
    async restart() {
      harness.client.close()
      await harness.core.dispose()
      Object.assign(harness, await connect())
    }
  }
  started.harness = harness
  return harness
}

/** What `mecatl call` prints for one call, with its first text block for assertions. */
export interface CallResult {
  isError: boolean
  content: ToolOutput['content']
  external: boolean
  /** Which part of the gate refused the call, when one did. */
  refusedBy?: string
  text: string
}

export interface CoreCallOptions {
  /** The core's data directory, as `MECATL_HOME` is the CLI's. */
  dataDir: string
  /** The folder the call works in, as `--workspace`. */
  workspace: string
  /**
   * Over the defaults (`host: 'cli'`, not interactive, `workspace`): `modeOverride` is `--mode`,
   * `autoApprove` is `--yes`, `configPath` is `--config`.
   */
  core?: Partial<CoreOptions>
}

/**
 * One tool call made as `mecatl call` makes it, in this process rather than a child: a core of
 * its own over `dataDir`, started for the call and disposed after it (so what one call keeps,
 * the next learns only through the database, as between two commands), the gate the core puts
 * together for calls, and nobody to ask. The command's own parsing, printing and exit codes are
 * tested through the built CLI in src/main/cli.
 */
export async function callThroughCore(
  name: string,
  input: unknown,
  options: CoreCallOptions
): Promise<CallResult> {
  const core = await createCore({
    dataDir: options.dataDir,
    host: 'cli',
    interactive: false,
    workspace: options.workspace,
    ...options.core
  })
  try {
    const result = await callOnce(core.turns, options.workspace, name, JSON.stringify(input))
    const first = result.output.content[0]
    return {
      isError: result.output.isError,
      content: result.output.content,
      external: result.output.external,
      ...(result.refusedBy ? { refusedBy: result.refusedBy } : {}),
      text: first?.type === 'text' ? first.text : ''
    }
  } finally {
    await core.dispose()
  }
}
