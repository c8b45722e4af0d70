import { describe, expect, it } from 'vitest'
import { JOB_MARKER_VAR } from '../jobs/job-marker'
import { serverEnvironment } from './server-env'
import { exactSpawnEnvironment } from './stdio-transport'

describe('serverEnvironment', () => {
  const app = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    LANG: 'en_US.UTF-8',
    AWS_SECRET_ACCESS_KEY: 'secret',
    GITHUB_TOKEN: 'ghp_x',
    LD_PRELOAD: '/tmp/evil.so',
    SHELL: '/bin/zsh'
  }
  const token = '123.456.789.0123456789abcdef'

  it('is the allowlist, MECATL_TZ, the passthrough names, the literal env and the marker, nothing else', () => {
    const env = serverEnvironment(
      { env_passthrough: ['GITHUB_TOKEN', 'NOT_SET'], env: { DEBUG: '1' } },
      app,
      'Europe/Paris',
      token
    )
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      MECATL_TZ: 'Europe/Paris',
      GITHUB_TOKEN: 'ghp_x',
      DEBUG: '1',
      [JOB_MARKER_VAR]: token
    })
  })

  it('leaves out a name it is told never to pass (Mecatl’s keys, for a sandboxed server)', () => {
    const env = serverEnvironment(
      { env_passthrough: ['GITHUB_TOKEN', 'OPENAI_API_KEY'], env: {} },
      { ...app, OPENAI_API_KEY: 'sk-mecatl' },
      'UTC',
      token,
      new Set(['OPENAI_API_KEY'])
    )
    expect(env.GITHUB_TOKEN).toBe('ghp_x')
    expect(Object.values(env)).not.toContain('sk-mecatl')
  })

  it('sets the marker last: neither passthrough nor the literal env replaces it', () => {
    const outer = '1.2.3.fedcba9876543210'
    const env = serverEnvironment(
      { env_passthrough: [JOB_MARKER_VAR], env: { [JOB_MARKER_VAR]: 'forged' } },
      { ...app, [JOB_MARKER_VAR]: outer },
      'UTC',
      token
    )
    // A Mecatl running inside another's job keeps the outer token, so that job's end reaches it.
    expect(env[JOB_MARKER_VAR]).toBe(`${outer}:${token}`)
  })

  it('never passes a code-loading variable through, even if settings validation was skipped', () => {
    const env = serverEnvironment({ env_passthrough: ['LD_PRELOAD'], env: {} }, app, 'UTC', token)
    expect(env).not.toHaveProperty('LD_PRELOAD')
  })
})

describe('exactSpawnEnvironment', () => {
  it('blanks the SDK’s inherited defaults that the allowlist did not set', () => {
    const env = exactSpawnEnvironment({ PATH: '/usr/bin', HOME: '/home/me' }) as Record<
      string,
      string | undefined
    >
    expect(env.PATH).toBe('/usr/bin')
    for (const name of ['SHELL', 'TERM', 'USER', 'LOGNAME']) {
      expect(name in env && env[name] === undefined).toBe(true)
    }
  })
})
