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

export const sandboxSettingsSchema = z
  .object({
    /** Unset: this platform's backend (bwrap on Linux, seatbelt on macOS), none elsewhere. */
    kind: z.enum(sandboxKinds).optional(),
    network: z.enum(sandboxNetworks).default('off'),
    /** With `network: allowlist`: the only hosts a confined command may reach. */
    allowed_hosts: z.array(hostName).default([]),
    /** More paths a confined command may read (inside a denied one, say). */
    readable: z.array(pathEntry).default([]),
    /** More paths a confined command may write, beside the project folder. */
    writable: z.array(pathEntry).default([]),
    /** More paths a confined command may not read, beside the person's secrets. */
    deny_read: z.array(pathEntry).default([])
  })
  .strict()
export type SandboxSettings = z.infer<typeof sandboxSettingsSchema>

export const sandboxDefaults: SandboxSettings = {
  network: 'off',
  allowed_hosts: [],
  readable: [],
  writable: [],
  deny_read: []
}

/** The backend a platform confines with when the settings name none. */
export function platformSandbox(platform: string): SandboxKind {
  if (platform === 'linux') return 'bwrap'
  if (platform === 'darwin') return 'seatbelt'
  return 'none'
}

/** The person's secrets a confined command never reads, relative to their home directory. */
export const SECRET_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc'
]
