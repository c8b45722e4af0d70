import { describe, expect, it } from 'vitest'
import { exactSpawnEnvironment, serverEnvironment } from './server-env'

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

  it('is the allowlist, MECATL_TZ, the passthrough names and the literal env, nothing else', () => {
    const env = serverEnvironment(
      { env_passthrough: ['GITHUB_TOKEN', 'NOT_SET'], env: { DEBUG: '1' } },
      app,
      'Europe/Paris'
    )
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      MECATL_TZ: 'Europe/Paris',
      GITHUB_TOKEN: 'ghp_x',
      DEBUG: '1'
    })
  })

  it('never passes a code-loading variable through, even if settings validation was skipped', () => {
    const env = serverEnvironment({ env_passthrough: ['LD_PRELOAD'], env: {} }, app, 'UTC')
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
