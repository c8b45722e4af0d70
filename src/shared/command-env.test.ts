// What of Mecatl's environment reaches a command: the allowlist, the person's names, and never a
// key Mecatl itself uses, in the settings check as well as at each start.
import { describe, expect, it } from 'vitest'
import { commandEnvironment, looksSecret, mecatlKeyNames, passesByDefault } from './command-env'
import { settingsSchema } from './settings'

describe('the command environment', () => {
  it('passes the fixed names and the locale, nothing a person did not name', () => {
    const env = commandEnvironment(
      {
        PATH: '/usr/bin',
        HOME: '/h',
        LC_ALL: 'C',
        LC_MESSAGES: 'C',
        AWS_SECRET_ACCESS_KEY: 'x',
        DISPLAY: ':0',
        PWD: '/p'
      },
      [],
      new Set()
    )
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/h', LC_ALL: 'C', LC_MESSAGES: 'C' })
  })

  it('never passes a name that looks like a secret by default, even under LC_', () => {
    for (const name of ['LC_API_KEY', 'LC_PASSWORD', 'LC_TOKEN']) {
      expect(passesByDefault(name)).toBe(false)
    }
    for (const name of ['GITHUB_TOKEN', 'DB_PASSWORD', 'MY_SECRET', 'OPENAI_API_KEY']) {
      expect(looksSecret(name)).toBe(true)
    }
    expect(looksSecret('GOPATH')).toBe(false)
  })

  it('passes a listed name, never one of Mecatl’s keys even when listed', () => {
    const env = commandEnvironment(
      { GOPATH: '/go', OPENAI_API_KEY: 'sk' },
      ['GOPATH', 'OPENAI_API_KEY'],
      new Set(['OPENAI_API_KEY'])
    )
    expect(env).toEqual({ GOPATH: '/go' })
  })

  it('knows every key Mecatl reads: providers’, search backends’ and the defaults', () => {
    const settings = settingsSchema.parse({
      providers: [{ id: 'p', kind: 'openai', api_key_env: 'MY_OPENAI' }],
      websearch: { backends: [{ kind: 'brave', api_key_env: 'MY_BRAVE' }] }
    })
    expect([...mecatlKeyNames(settings)].sort()).toEqual(
      ['BRAVE_API_KEY', 'EXA_API_KEY', 'MY_BRAVE', 'MY_OPENAI', 'WEBSEARCH_API_KEY'].sort()
    )
  })

  it('does not validate settings that hand a command, or a sandboxed server, such a key', () => {
    const base = { providers: [{ id: 'p', kind: 'openai', api_key_env: 'MY_OPENAI' }] }
    const shell = settingsSchema.safeParse({
      ...base,
      shell: { env_passthrough: ['GOPATH', 'MY_OPENAI'] }
    })
    expect(shell.success).toBe(false)
    expect(shell.error?.issues[0]?.path).toEqual(['shell', 'env_passthrough', 1])
    expect(shell.error?.issues[0]?.message).toMatch(/MY_OPENAI holds a key Mecatl itself uses/)
    const server = (sandbox: boolean): boolean =>
      settingsSchema.safeParse({
        ...base,
        mcp: [{ name: 's', command: 'x', sandbox, env_passthrough: ['EXA_API_KEY'] }]
      }).success
    expect(server(true)).toBe(false)
    // An unconfined server runs as the person: its passthrough is the person's to give.
    expect(server(false)).toBe(true)
  })
})
