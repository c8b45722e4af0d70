import { platformSandbox, type SandboxKind, type SandboxNetwork } from '../../shared/sandbox'
import type { Settings } from '../../shared/settings'
import { findOnPath } from './backend'
import { bubblewrapInstallHint } from './install-hint'
import { bwrapWrap, type Wrapped } from './bwrap'
import { existsSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SANDBOX_EXEC, seatbeltWrap } from './seatbelt'
import { SandboxUnavailable, type SandboxedServer } from './sandboxed-server'
import { EgressGateway } from './egress-gateway'
import { confinementPolicy, type ConfinementPolicy, type PolicyInputs } from './policy'
import { SandboxFiles } from './sandbox-files'
import { seccompSupported } from './seccomp'
import { sandboxView } from './sandbox-view'
import type { SandboxStatus } from './sandbox-status'
import type { SandboxView } from '../../shared/sandbox'

/** What a confined MCP server finds programs in: the system's directories, nothing else. */
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
import { selfTest, type Wrap } from './self-test'

// Shell's tool reads these from here; they live apart so the view can use them without a cycle.
export { describeSandbox, type SandboxStatus } from './sandbox-status'

export interface SandboxServiceOptions {
  dataDir: string
  /** Mecatl's other files a command must never read (a settings file kept elsewhere). */
  ownFiles?: string[]
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
  home?: string
}

/** What one command asks of its sandbox beyond the settings, each approved by a person. */
export interface ConfineOptions {
  /** `network: "on"` for this command only. */
  network?: 'on'
  /** The repository's `.git` writable for this command only (an approved git write). */
  gitWritable?: boolean
}

/** Turns a command into its confined form for one project folder and temp directory. */
export type Confine = (file: string, args: string[]) => Wrapped

interface Backend {
  name: string
  /** The program itself: a different one (another PATH, or the file replaced) is tested afresh. */
  program: string
  wrap: Wrap
}

/**
 * Backends (name, program path and the file there, see `key`) whose self-test passed in this
 * process. What the test proves is a property of that program on this machine, so another core
 * in the process (a CLI command's, a test's) trusts the pass without starting it again. A failure is not shared: the next core
 * tries afresh, so a test that failed on a busy machine does not refuse Shell for good.
 */
const passedInProcess = new Set<string>()

/**
 * The sandbox Shell runs in: which backend the settings ask for, whether it is here, and whether
 * it passed its self-test (run once per backend and process, before the first command). On when
 * it says it is on, off only when the person says so, and refusing commands in between.
 */
export class SandboxService {
  private readonly tested = new Map<string, Promise<string | null>>()
  private readonly results = new Map<string, string | null>()
  private readonly platform: NodeJS.Platform
  private readonly egress = new EgressGateway()
  private readonly files: SandboxFiles
  /** Told when the core stops: a self-test not yet at its probe is not started then. */
  private readonly stopping = new AbortController()

  constructor(private readonly options: SandboxServiceOptions) {
    this.platform = options.platform ?? process.platform
    this.files = new SandboxFiles(options.dataDir)
  }

  /** The backend kind these settings ask for (unset: this platform's). */
  kind(settings: Settings): SandboxKind {
    return settings.sandbox.kind ?? platformSandbox(this.platform)
  }

  /** Runs the self-test these settings need, once; then `status` answers without waiting. */
  async prepare(settings: Settings): Promise<SandboxStatus> {
    const backend = this.backend(settings)
    if (backend && 'name' in backend) {
      const key = this.key(backend)
      if (passedInProcess.has(key)) {
        this.results.set(key, null)
        return this.status(settings)
      }
      let test = this.tested.get(key)
      if (!test) {
        test = selfTest(backend.wrap, this.policyInputs(), this.stopping.signal).catch(
          (error: unknown) => (error instanceof Error ? error.message : String(error))
        )
        this.tested.set(key, test)
        void test.then((why) => {
          this.results.set(key, why)
          if (why === null) passedInProcess.add(key)
        })
      }
      this.results.set(key, await test)
    }
    return this.status(settings)
  }

  /** Where Shell stands now; `checking` until the backend's self-test has answered. */
  status(settings: Settings): SandboxStatus {
    return this.standing(settings, false)
  }

  /**
   * Where Shell will stand if the self-test under way (or not started yet) passes: `status`
   * with `checking` read as confined. What the model is told of Shell is written from it, so a
   * turn can be offered Shell before the answer, and a pass changes nothing it was told; its
   * commands still wait for the answer (`confine`), and a failure refuses them as ever.
   */
  expected(settings: Settings): SandboxStatus {
    return this.standing(settings, true)
  }

  private standing(settings: Settings, passing: boolean): SandboxStatus {
    const backend = this.backend(settings)
    if (backend === null) {
      const kind = this.kind(settings)
      return {
        state: 'unconfined',
        why:
          kind === 'none' && settings.sandbox.kind === 'none'
            ? 'sandbox.kind is none in Settings'
            : `there is no sandbox backend for ${this.platform}`
      }
    }
    if ('refused' in backend) return { state: 'refused', why: backend.refused }
    const key = this.key(backend)
    if (!this.results.has(key) && !passing) return { state: 'checking' }
    const why = this.results.get(key)
    if (why) return { state: 'refused', why: `${backend.name} failed its self-test: ${why}` }
    return { state: 'confined', backend: backend.name, network: settings.sandbox.network }
  }

  /**
   * How to confine one command in `workspace` with its own `tmp`, or null when it runs
   * unconfined. Throws (with the reason) when the sandbox is configured but not usable.
   */
  async confine(
    settings: Settings,
    workspace: string,
    tmp: string,
    asked: ConfineOptions = {}
  ): Promise<Confine | null> {
    const status = await this.prepare(settings)
    if (status.state === 'unconfined') return null
    if (status.state !== 'confined')
      throw new SandboxRefused(
        status.state === 'refused' ? status.why : 'the sandbox is still being checked'
      )
    const backend = this.backend(settings)
    if (!backend || !('name' in backend)) throw new SandboxRefused('the sandbox backend went away')
    const network = await this.network(asked.network ?? settings.sandbox.network, settings)
    let policy: ConfinementPolicy
    try {
      policy = confinementPolicy(
        {
          ...this.policyInputs(),
          workspace,
          settings: settings.sandbox,
          tmp,
          gitWritable: asked.gitWritable === true
        },
        network
      )
    } catch (error) {
      throw new SandboxRefused(`the sandbox could not be set up: ${messageOf(error)}`)
    }
    policy.env = { ...policy.env, ...cachesIn(tmp, policy.writable, this.home()) }
    return (file, args) => backend.wrap(policy, workspace, file, args)
  }

  /**
   * An MCP server's command confined: the project folder its working directory (read-write),
   * nothing of the home directory unless `readable`/`writable` lists it, PATH only the system's
   * directories (a bare name cannot resolve to a program in the project or the home), and the
   * server's own `network` over the global one. Throws SandboxUnavailable when it cannot be.
   */
  async confineServer(
    settings: Settings,
    server: SandboxedServer,
    cwd: string
  ): Promise<{ command: string; args: string[] }> {
    const status = await this.prepare(settings)
    const backend = this.backend(settings)
    if (status.state !== 'confined' || !backend || !('name' in backend)) {
      const why =
        status.state === 'refused' || status.state === 'unconfined' ? status.why : status.state
      throw new SandboxUnavailable(server.name, why)
    }
    const network = server.network ?? settings.sandbox.network
    const policy = confinementPolicy(
      { ...this.policyInputs(), workspace: cwd, settings: settings.sandbox },
      // The allowlist proxy is Shell's; a server asking for it gets no network rather than all.
      network === 'on' ? 'on' : 'off'
    )
    policy.env = { ...policy.env, PATH: SYSTEM_PATH }
    const { file, args } = backend.wrap(policy, cwd, server.command, [...server.args])
    return { command: file, args }
  }

  /** What a confined command in `workspace` (or in none) sees under `settings`, for a person. */
  async view(settings: Settings, workspace: string | null): Promise<SandboxView> {
    return sandboxView(settings, await this.prepare(settings), this.policyInputs(), workspace)
  }

  /**
   * Shuts the egress proxy, if one was started, once every self-test under way has ended (one
   * still running would write its filter into the data directory after the core let go of it).
   * One that has not reached its probe yet stops there: a `run` whose turn ended before it does
   * not wait for a sandbox check nobody needs.
   */
  async dispose(): Promise<void> {
    this.stopping.abort()
    await Promise.allSettled([...this.tested.values()])
    await this.egress.close()
  }

  private async network(
    mode: SandboxNetwork,
    settings: Settings
  ): Promise<ConfinementPolicy['network']> {
    if (mode !== 'allowlist') return mode
    const route = await this.egress.route(settings.sandbox.allowed_hosts)
    return {
      proxyPort: route.port,
      socketDir: route.dir,
      socketPath: route.socketPath,
      bridgePath: route.bridgePath
    }
  }

  /** What every policy of this core is built with, beside the command's own. */
  private policyInputs(): Omit<PolicyInputs, 'workspace' | 'settings'> {
    return {
      dataDir: this.options.dataDir,
      ownFiles: this.options.ownFiles,
      home: this.home(),
      uid: process.getuid?.() ?? -1,
      env: this.options.env ?? process.env,
      gitConfigCopy: (file) => this.files.gitConfigCopy(file)
    }
  }

  private home(): string {
    return this.options.home ?? os.homedir()
  }

  private backend(settings: Settings): Backend | { refused: string } | null {
    const kind = this.kind(settings)
    if (kind === 'none') return null
    if (kind === 'seatbelt') {
      if (this.platform !== 'darwin') {
        return {
          refused: `seatbelt is macOS's sandbox-exec; this is ${this.platform}: choose bwrap (Linux) or none`
        }
      }
      // Never one found on PATH: the system's own program, or nothing.
      if (!existsSync(SANDBOX_EXEC)) return { refused: `${SANDBOX_EXEC} is not there` }
      return {
        name: 'seatbelt (sandbox-exec)',
        program: SANDBOX_EXEC,
        wrap: (policy, _cwd, file, args) => seatbeltWrap(policy, file, args)
      }
    }
    if (this.platform !== 'linux') {
      return { refused: `bubblewrap runs on Linux only; this is ${this.platform}` }
    }
    if (!seccompSupported()) {
      return {
        refused: `the sandbox's system-call filter has no definition for the ${process.arch} architecture, so Unix sockets could not be closed: choose kind: none to run commands unconfined`
      }
    }
    // The PATH commands get, or this process's when they are given none.
    const searched = { PATH: this.options.env?.PATH ?? process.env.PATH }
    const bwrap = findOnPath('bwrap', searched)
    if (!bwrap) {
      return {
        refused: `bubblewrap is not installed (no bwrap on PATH): ${bubblewrapInstallHint(searched)}`
      }
    }
    return {
      name: 'bubblewrap',
      program: bwrap,
      wrap: (policy, cwd, file, args) =>
        bwrapWrap(bwrap, policy, cwd, file, args, this.files.filter(policy.unixSockets))
    }
  }

  /**
   * Which program a self-test result is for: its path and the file there as it is now, so one
   * replaced or upgraded in place (a new inode, size or change time) is tested afresh.
   */
  private key(backend: Backend): string {
    let file = 'unreadable'
    try {
      const stat = statSync(backend.program)
      file = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
    } catch {
      // Gone since it was found: no result stands for it, and its self-test will say why.
    }
    return `${backend.name}:${backend.program}:${file}`
  }
}

/** A command refused because the sandbox it must run in cannot be honoured. */
export class SandboxRefused extends Error {
  constructor(readonly why: string) {
    super(why)
    this.name = 'SandboxRefused'
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Package managers' caches in the command's own TMPDIR, since the home directory is read-only
 * inside: `npm install` and `pip install` work, at the cost of a cold cache. A cache folder the
 * person made writable is used as it is.
 */
function cachesIn(tmp: string, writable: readonly string[], home: string): Record<string, string> {
  // A command given the shared system temp directory (temp_scope: system) keeps the default
  // caches: others can plant files in /tmp/.npm before it runs, and a cache is code it runs.
  if (path.resolve(tmp) === path.resolve(os.tmpdir()) || path.resolve(tmp) === '/tmp') return {}
  const covered = (folder: string): boolean =>
    writable.some((entry) => folder === entry || folder.startsWith(`${entry}/`))
  return {
    ...(covered(path.join(home, '.npm')) ? {} : { npm_config_cache: path.join(tmp, '.npm') }),
    ...(covered(path.join(home, '.cache')) ? {} : { XDG_CACHE_HOME: path.join(tmp, '.cache') })
  }
}
