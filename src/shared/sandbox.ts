import { z } from 'zod'

/** The confinement backends: bubblewrap on Linux, sandbox-exec (seatbelt) on macOS, or none. */
export const sandboxKinds = ['bwrap', 'seatbelt', 'none'] as const
export type SandboxKind = (typeof sandboxKinds)[number]

/**
 * What a confined command may reach: nothing (`off`), only the listed hosts through Mecatl's
 * proxy on loopback (`allowlist`), or everything (`on`).
 */
export const sandboxNetworks = ['off', 'allowlist', 'on'] as const
export type SandboxNetwork = (typeof sandboxNetworks)[number]

const hostName = z
  .string()
  .min(1)
  .regex(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i,
    'a host name such as registry.npmjs.org (optionally *.example.com or host:port)'
  )

const pathEntry = z.string().min(1)

/** A Unix socket passed into the sandbox: a path, or `$NAME` for the path a variable holds. */
const socketEntry = z
  .string()
  .min(1)
  .regex(
    /^(\$[A-Za-z_][A-Za-z0-9_]*|~?\/.*)$/,
    'an absolute path (or ~/…) of a Unix socket, or $NAME for the path a variable holds (e.g. $SSH_AUTH_SOCK)'
  )

/** More paths for one project folder only, beside those every project gets. */
const projectPathsSchema = z
  .object({
    readable: z.array(pathEntry).default([]),
    writable: z.array(pathEntry).default([])
  })
  .strict()
export type ProjectSandboxPaths = z.infer<typeof projectPathsSchema>

export const sandboxSettingsSchema = z
  .object({
    /** Unset: this platform's backend (bwrap on Linux, seatbelt on macOS), none elsewhere. */
    kind: z.enum(sandboxKinds).optional(),
    network: z.enum(sandboxNetworks).default('off'),
    /** With `network: allowlist`: the only hosts a confined command may reach. */
    allowed_hosts: z.array(hostName).default([]),
    /**
     * The toolchains and caches of the home directory a command may read (HOME_DEFAULTS); false:
     * the home directory is empty inside but for what `readable` lists.
     */
    home_defaults: z.boolean().default(true),
    /** More paths a confined command may read (anywhere: in the home directory too). */
    readable: z.array(pathEntry).default([]),
    /** More paths a confined command may write, beside the project folder. */
    writable: z.array(pathEntry).default([]),
    /** Paths a confined command may never read, even inside the project or a readable path. */
    deny_read: z.array(pathEntry).default([]),
    /**
     * Unix sockets a confined command may connect to (an ssh-agent for `git push`). With none,
     * a command can make no Unix socket at all.
     */
    sockets: z.array(socketEntry).default([]),
    /** Paths for one project folder (keyed by its absolute path), beside the lists above. */
    projects: z.record(z.string().min(1), projectPathsSchema).default({})
  })
  .strict()
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>

export const sandboxDefaults: SandboxSettings = {
  network: 'off',
  allowed_hosts: [],
  home_defaults: true,
  readable: [],
  writable: [],
  deny_read: [],
  sockets: [],
  projects: {}
}

/** The backend a platform confines with when the settings name none. */
export function platformSandbox(platform: string): SandboxKind {
  if (platform === 'linux') return 'bwrap'
  if (platform === 'darwin') return 'seatbelt'
  return 'none'
}

/** One entry of the home directory a confined command sees by default, and why. */
export interface HomeDefault {
  /** Relative to the home directory. */
  path: string
  why: string
  /** Shown as a copy with what could hold a credential taken out (see sandbox/git-config.ts). */
  filtered?: true
}

/**
 * What of the home directory a confined command reads by default (`home_defaults`), read-only:
 * toolchains it runs and package caches it reads, and git's settings without credentials.
 * Nothing else of the home directory is there; an entry that does not exist is left out.
 */
export const HOME_DEFAULTS: readonly HomeDefault[] = [
  { path: '.gitconfig', why: 'git settings, without credential helpers or tokens', filtered: true },
  {
    path: '.config/git/config',
    why: 'git settings, without credential helpers or tokens',
    filtered: true
  },
  { path: '.config/git/ignore', why: 'git’s global ignore list' },
  { path: '.config/git/attributes', why: 'git’s global attributes' },
  { path: '.cargo/bin', why: 'Rust programs (cargo, rustc)' },
  { path: '.cargo/registry', why: 'Rust crates already downloaded' },
  { path: '.cargo/git', why: 'Rust crates already fetched from git' },
  { path: '.rustup', why: 'Rust toolchains' },
  { path: '.nvm', why: 'Node.js versions (nvm)' },
  { path: '.volta', why: 'Node.js tools (Volta)' },
  { path: '.npm/_cacache', why: 'npm packages already downloaded' },
  { path: '.pyenv', why: 'Python versions (pyenv)' },
  { path: '.cache/pip', why: 'Python packages already downloaded' },
  { path: '.local/bin', why: 'programs installed for you alone (pip --user, pipx)' },
  { path: '.local/lib', why: 'Python packages installed for you alone' },
  { path: '.rbenv', why: 'Ruby versions (rbenv)' },
  { path: 'go/bin', why: 'Go programs' },
  { path: 'go/pkg/mod', why: 'Go modules already downloaded' },
  { path: '.m2/repository', why: 'Maven packages already downloaded' },
  { path: '.gradle/caches', why: 'Gradle packages already downloaded' },
  { path: '.gradle/wrapper', why: 'Gradle versions' },
  { path: '.sdkman/candidates', why: 'JDKs and JVM tools (SDKMAN!)' },
  { path: '.bun/bin', why: 'Bun' }
]

/**
 * Files of the home directory that hold credentials, hidden from a confined command even where
 * the project folder or a readable path covers them (a person who opens their home directory as
 * the project). The wall is the closed home directory; this list only narrows what a person
 * opened up themselves, so it is never what keeps a secret out.
 */
export const SECRET_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history'
]

/**
 * What a confined command sees under the settings in force, said for a person (Settings →
 * Permissions → Sandbox, `mecatl sandbox`): each folder, socket and variable, and why.
 */
export const sandboxViewSchema = z.object({
  /** Whether commands are confined now, and how (`sandbox.status`'s sentence). */
  state: z.enum(['confined', 'unconfined', 'refused', 'checking']),
  text: z.string(),
  /** Mecatl runs as root: commands are still a user with no capabilities (see the README). */
  asRoot: z.boolean(),
  /** System folders, read-only. */
  system: z.array(z.string()),
  /** As root: how many files only root may read are hidden inside them. */
  hiddenForRoot: z.number().int(),
  /** The home directory, empty inside but for what is listed; null when there is none. */
  home: z.string().nullable(),
  homeDefaults: z.array(
    z.object({
      path: z.string(),
      why: z.string(),
      present: z.boolean(),
      filtered: z.boolean()
    })
  ),
  /** The project folder (read-write), when one is asked about. */
  workspace: z.string().nullable(),
  /** Its repository's git folders, read-only. */
  gitReadOnly: z.array(z.string()),
  /** Paths a person added (every project's, then this project's), as resolved. */
  readable: z.array(z.string()),
  writable: z.array(z.string()),
  project: z.object({ readable: z.array(z.string()), writable: z.array(z.string()) }).nullable(),
  /** Listed sockets and where each is now (null: not there). */
  sockets: z.array(z.object({ entry: z.string(), path: z.string().nullable() })),
  /** Whether a command may make Unix sockets at all. */
  unixSockets: z.boolean(),
  network: z.enum(sandboxNetworks),
  env: z.object({
    /** Passed when set: PATH, HOME, LANG… */
    fixed: z.array(z.string()),
    /** Passed because a person listed them. */
    listed: z.array(z.string()),
    /** Mecatl's own keys: never passed. */
    never: z.array(z.string())
  })
})
export type SandboxView = z.infer<typeof sandboxViewSchema>
