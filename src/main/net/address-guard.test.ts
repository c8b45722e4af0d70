import { describe, expect, it } from 'vitest'
import { refusalFor, vetHost, type Resolver } from './address-guard'
import { checkUrl } from './guarded-get'

// Names resolve through this table, never the network: the guard must judge the answers.
const table: Record<string, string[]> = {
  'internal.example': ['10.0.0.7'],
  'metadata.example': ['169.254.169.254'],
  'mixed.example': ['93.184.216.34', '192.168.1.1'],
  'v6local.example': ['fd12:3456::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'public.example': ['93.184.216.34', '2606:2800:220:1::1']
}
const resolver: Resolver = async (name) => {
  const answers = table[name]
  if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

async function verdict(raw: string): Promise<string> {
  try {
    await vetHost(checkUrl(raw), { resolver })
    return 'allowed'
  } catch (error) {
    return (error as Error).message
  }
}

/** Each form the URL parser or the guard must see through to a non-public address. */
const refused = [
  // Loopback, in every IPv4 spelling the WHATWG parser accepts.
  'http://127.0.0.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.0x0.0x0.0x1/',
  'http://0177.0.0.1/',
  'http://017700000001/',
  'http://127.1/',
  'http://127.0.1/',
  'http://0x7f.1/',
  'http://127.0.0.1./',
  'http://127.000.000.001/',
  'http://%31%32%37.0.0.1/',
  'http://%30x7f000001/',
  'http://user@127.0.0.1/',
  'http://example.com@127.0.0.1/',
  'http://example.com:80@0x7f000001/',
  'http://localhost/',
  'http://LOCALHOST./',
  'http://app.localhost/',
  // Unspecified, private, link-local, CGNAT, multicast, broadcast, reserved.
  'http://0/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://10.1/',
  'http://167772161/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.0.1/',
  'http://0xc0a80001/',
  'http://192.168.257/',
  'http://169.254.169.254/',
  'http://0xa9fea9fe/',
  'http://2852039166/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://239.255.255.250/',
  'http://255.255.255.255/',
  'http://240.0.0.1/',
  'http://192.0.2.1/',
  'http://198.18.0.1/',
  // IPv6 and its IPv4-carrying forms.
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::127.0.0.1]/',
  'http://[::7f00:1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[2002:7f00:1::1]/',
  'http://[2001::1]/',
  'http://[2001:db8::1]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd00:ec2::254]/',
  'http://[ff02::1]/',
  'http://[fec0::1]/',
  'http://[100::1]/',
  // Names whose answers are not public (one bad answer is enough).
  'http://internal.example/',
  'http://metadata.example./',
  'http://mixed.example/',
  'http://v6local.example/',
  'http://mapped.example/',
  'https://INTERNAL.example:8443/path'
]

describe('address guard', () => {
  it(`refuses ${refused.length} spellings of loopback, private, link-local and other non-public addresses`, async () => {
    expect(refused.length).toBeGreaterThanOrEqual(40)
    const allowed: string[] = []
    for (const url of refused) {
      const message = await verdict(url)
      if (message === 'allowed') allowed.push(url)
      else expect(message, url).toMatch(/^Refused .*do not retry it\.$|names this machine/)
    }
    expect(allowed).toEqual([])
  })

  it('lets globally routable addresses and names through', async () => {
    expect(await verdict('http://93.184.216.34/')).toBe('allowed')
    expect(await verdict('http://[2606:4700::1111]/')).toBe('allowed')
    expect(await verdict('https://public.example/a?b=c')).toBe('allowed')
    expect(refusalFor('8.8.8.8')).toBeNull()
    expect(refusalFor('1.1.1.1')).toBeNull()
  })

  it('says which range an address is in', () => {
    expect(refusalFor('10.1.2.3')).toContain('private (RFC 1918)')
    expect(refusalFor('169.254.169.254')).toContain('link-local')
    expect(refusalFor('100.64.1.1')).toContain('carrier-grade NAT')
    expect(refusalFor('::ffff:127.0.0.1')).toContain('loopback')
  })

  it('opens only loopback with the test hatch, nothing else', () => {
    expect(refusalFor('127.0.0.1', true)).toBeNull()
    expect(refusalFor('::1', true)).toBeNull()
    expect(refusalFor('10.0.0.1', true)).not.toBeNull()
    expect(refusalFor('169.254.169.254', true)).not.toBeNull()
    expect(refusalFor('127.0.0.1')).not.toBeNull()
  })

  it('refuses a name that does not resolve with what to check', async () => {
    expect(await verdict('http://nowhere.example/')).toContain('could not be resolved (ENOTFOUND)')
  })

  it('refuses URLs that are not absolute http(s), and over-long ones', () => {
    expect(() => checkUrl('file:///etc/passwd')).toThrow('only http and https')
    expect(() => checkUrl('gopher://example.com/')).toThrow('only http and https')
    expect(() => checkUrl('/relative')).toThrow('not an absolute URL')
    expect(() => checkUrl('http://[::1%25eth0]/')).toThrow('not an absolute URL')
    const base = 'http://example.com/'
    expect(checkUrl(base + 'a'.repeat(8192 - base.length)).href.length).toBe(8192)
    expect(() => checkUrl(base + 'a'.repeat(8193 - base.length))).toThrow('longer than 8192 bytes')
  })
})
