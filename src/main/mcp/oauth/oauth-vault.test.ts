import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { oauthVault } from './oauth-vault'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-vault-'))
  dirs.push(dir)
  return path.join(dir, 'home')
}

describe('the OAuth vault', () => {
  it('keeps every one of many changes made at once to one record (the SDK saves its parts apart)', async () => {
    const home = await dataDir()
    const vault = oauthVault({}, home)
    const key = 'https://mcp.example.com/mcp'
    await Promise.all([
      vault.update(key, (r) => ({ ...r, tokens: { access_token: 'a', token_type: 'Bearer' } })),
      vault.update(key, (r) => ({ ...r, clientInformation: { client_id: 'c' } })),
      vault.update(key, (r) => ({
        ...r,
        discoveryState: { authorizationServerUrl: 'https://as.example.com/' }
      })),
      ...Array.from({ length: 10 }, (_, i) =>
        vault.update(`${key}?${i}`, (r) => ({ ...r, clientInformation: { client_id: `n${i}` } }))
      )
    ])
    expect(vault.read(key)).toEqual({
      tokens: { access_token: 'a', token_type: 'Bearer' },
      clientInformation: { client_id: 'c' },
      discoveryState: { authorizationServerUrl: 'https://as.example.com/' }
    })
    for (let i = 0; i < 10; i++) {
      expect(vault.read(`${key}?${i}`).clientInformation).toEqual({ client_id: `n${i}` })
    }
    // A file only its owner reads, apart from the provider keys, in a folder only its owner opens.
    const file = path.join(home, 'mcp-oauth.json')
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(home)).mode & 0o777).toBe(0o700)
    await expect(stat(path.join(home, 'provider-keys.json'))).rejects.toThrow()
    await vault.write(key, null)
    expect(vault.read(key)).toEqual({})
    expect(await readFile(file, 'utf8')).not.toContain('access_token')
  })

  it('reads a damaged record as none rather than failing', async () => {
    const home = await dataDir()
    const vault = oauthVault({}, home)
    await vault.update('k', () => ({ tokens: { access_token: 'a', token_type: 'Bearer' } }))
    const { KeyFile } = await import('../../providers/key-file')
    await new KeyFile(home, 'mcp-oauth.json').store('k', '{"tokens": ')
    expect(vault.read('k')).toEqual({})
  })

  it('uses the host keychain where it has one, in order', async () => {
    const kept = new Map<string, string>()
    const vault = oauthVault(
      {
        storeSecret: async (name, value) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
          kept.set(name, value)
        },
        readSecret: (name) => kept.get(name)
      },
      await dataDir()
    )
    await Promise.all([
      vault.update('k', (r) => ({ ...r, tokens: { access_token: 'a', token_type: 'Bearer' } })),
      vault.update('k', (r) => ({ ...r, clientInformation: { client_id: 'c' } }))
    ])
    expect(vault.read('k')).toMatchObject({
      tokens: { access_token: 'a' },
      clientInformation: { client_id: 'c' }
    })
    expect([...kept.keys()]).toEqual(['mcp-oauth k'])
  })
})
