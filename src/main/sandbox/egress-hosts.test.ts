import { describe, expect, it } from 'vitest'
import { sandboxSettingsSchema } from '../../shared/sandbox'
import {
  isAllowed,
  parseAllowedHost,
  parseTarget,
  refusalText,
  type EgressKind,
  type EgressTarget
} from './egress-hosts'

function target(authority: string, kind: EgressKind): EgressTarget {
  const parsed = parseTarget(authority, kind === 'connect' ? null : 80)
  if (typeof parsed === 'string') throw new Error(parsed)
  return parsed
}

/** `allowed` when some entry passes `authority` for `kind`, `refused` when none does. */
function verdict(entries: string[], authority: string, kind: EgressKind = 'connect'): string {
  const parsed = parseTarget(authority, kind === 'connect' ? null : 80)
  if (typeof parsed === 'string') return 'malformed'
  return isAllowed(entries.map(parseAllowedHost), parsed, kind) ? 'allowed' : 'refused'
}

describe('allowed host entries', () => {
  it('match a name exactly, whatever its case or a trailing dot', () => {
    const list = ['registry.npmjs.org']
    expect(verdict(list, 'registry.npmjs.org:443')).toBe('allowed')
    expect(verdict(list, 'REGISTRY.NpmJs.ORG:443')).toBe('allowed')
    expect(verdict(list, 'registry.npmjs.org.:443')).toBe('allowed')
    expect(verdict(['Registry.NPMJS.org.'], 'registry.npmjs.org:443')).toBe('allowed')
    expect(verdict(list, 'registry.npmjs.org..:443')).toBe('malformed')
    expect(verdict(list, 'npmjs.org:443')).toBe('refused')
    expect(verdict(list, 'x.registry.npmjs.org:443')).toBe('refused')
    expect(verdict(list, 'registry.npmjs.org.evil.com:443')).toBe('refused')
    expect(verdict(list, 'registry-npmjs.org:443')).toBe('refused')
  })

  it('take *.name for subdomains only, never the name itself or a look-alike', () => {
    const list = ['*.pythonhosted.org']
    expect(verdict(list, 'files.pythonhosted.org:443')).toBe('allowed')
    expect(verdict(list, 'a.b.pythonhosted.org:443')).toBe('allowed')
    expect(verdict(list, 'pythonhosted.org:443')).toBe('refused')
    expect(verdict(list, 'evilpythonhosted.org:443')).toBe('refused')
    expect(verdict(list, 'pythonhosted.org.evil.com:443')).toBe('refused')
    expect(verdict(list, '.pythonhosted.org:443')).toBe('malformed')
    expect(() => parseAllowedHost('*.127.0.0.1')).toThrow(/wildcard needs a name/)
    expect(() => parseAllowedHost('*')).toThrow()
    expect(() => parseAllowedHost('a.*.example.com')).toThrow()
  })

  it('allow CONNECT on 443 and plain http on 80 only, unless the entry names its port', () => {
    expect(verdict(['pypi.org'], 'pypi.org:443', 'connect')).toBe('allowed')
    expect(verdict(['pypi.org'], 'pypi.org:80', 'connect')).toBe('refused')
    expect(verdict(['pypi.org'], 'pypi.org:22', 'connect')).toBe('refused')
    expect(verdict(['pypi.org'], 'pypi.org', 'http')).toBe('allowed')
    expect(verdict(['pypi.org'], 'pypi.org:80', 'http')).toBe('allowed')
    expect(verdict(['pypi.org'], 'pypi.org:443', 'http')).toBe('refused')
    expect(verdict(['pypi.org'], 'pypi.org:8080', 'http')).toBe('refused')
    expect(verdict(['pypi.org:8443'], 'pypi.org:8443', 'connect')).toBe('allowed')
    expect(verdict(['pypi.org:8443'], 'pypi.org:8443', 'http')).toBe('allowed')
    expect(verdict(['pypi.org:8443'], 'pypi.org:443', 'connect')).toBe('refused')
    expect(verdict(['*.pypi.org:8443'], 'a.pypi.org:8443', 'connect')).toBe('allowed')
    expect(verdict(['*.pypi.org:8443'], 'a.pypi.org:443', 'connect')).toBe('refused')
  })

  it('match a listed name by name only, never by an address it may have', () => {
    const list = ['localhost:8080', 'registry.npmjs.org']
    for (const authority of [
      '127.0.0.1:8080',
      '[::1]:8080',
      '[::ffff:127.0.0.1]:8080',
      '104.16.0.35:443',
      '[2606:4700::6810:23]:443'
    ]) {
      expect(verdict(list, authority), authority).toBe('refused')
    }
  })

  it('match an IP literal only when it is listed, in the one canonical form', () => {
    expect(verdict(['127.0.0.1:8080'], '127.0.0.1:8080')).toBe('allowed')
    expect(verdict(['127.0.0.1:8080'], 'localhost:8080')).toBe('refused')
    expect(verdict(['127.0.0.1:8080'], '127.0.0.2:8080')).toBe('refused')
    expect(verdict(['127.0.0.1:8080'], '[::ffff:127.0.0.1]:8080')).toBe('refused')
    // The forms a resolver reads as 127.0.0.1 are no host at all here, listed or not.
    for (const spelling of [
      '2130706433',
      '0x7f000001',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '127.1',
      '127.0.1',
      '127.000.000.001',
      '127.0.0.01',
      '1.2.3.4.5',
      'example.123'
    ]) {
      expect(verdict(['127.0.0.1:8080'], `${spelling}:8080`), spelling).toBe('malformed')
      expect(() => parseAllowedHost(`${spelling}:8080`), spelling).toThrow()
    }
    expect(verdict(['[::1]:8080'], '[0:0:0:0:0:0:0:1]:8080')).toBe('allowed')
    expect(verdict(['[::1]:8080'], '[::2]:8080')).toBe('refused')
    expect(verdict(['[::1]:8080'], '[fe80::1%25eth0]:8080')).toBe('malformed')
    expect(verdict(['[::1]:8080'], '::1:8080')).toBe('malformed')
  })

  it('find no host in userinfo, escapes, other scripts or odd ports', () => {
    const list = ['allowed.com', 'allowed.com:8080']
    for (const authority of [
      'allowed.com@evil.com:443',
      'allowed.com:443@evil.com:443',
      'allowed.com%2eevil.com:443',
      'allow%65d.com:443',
      'allowed.com\\@evil.com:443',
      'allowed.com/evil.com:443',
      'allowed.com :443',
      'allowed.com\t:443',
      'allowed.com\0:443',
      'allowed.cоm:443', // a Cyrillic о
      'xn--allowed.com:443x',
      'allowed.com:',
      'allowed.com:0',
      'allowed.com:65536',
      'allowed.com:0443',
      'allowed.com:+443',
      'allowed.com:443:443',
      'allowed.com',
      '',
      ':443',
      '[allowed.com]:443',
      '-allowed.com:443',
      `${'a'.repeat(64)}.com:443`,
      `${'a.'.repeat(130)}com:443`
    ]) {
      expect(verdict(list, authority), JSON.stringify(authority)).toBe('malformed')
    }
  })

  it('parse every entry the settings schema accepts, and the schema refuses what they refuse', () => {
    const entries = ['registry.npmjs.org', '*.pythonhosted.org', 'localhost:4873', '10.0.0.7:3128']
    const parsed = sandboxSettingsSchema.parse({ allowed_hosts: entries })
    for (const entry of parsed.allowed_hosts) expect(() => parseAllowedHost(entry)).not.toThrow()
    for (const bad of ['a@b.com', 'a b.com', '*.', 'host:', 'ho%73t.com']) {
      expect(sandboxSettingsSchema.safeParse({ allowed_hosts: [bad] }).success, bad).toBe(false)
      expect(() => parseAllowedHost(bad), bad).toThrow(/sandbox.allowed_hosts entry/)
    }
  })
})

describe('the refusal', () => {
  it('names the host and the setting that would allow it, on one line', () => {
    const tunnel = refusalText(target('evil.example:443', 'connect'), 'connect')
    expect(tunnel).toContain('evil.example:443')
    expect(tunnel).toContain('add "evil.example" to sandbox.allowed_hosts in Settings')
    const plain = refusalText(target('evil.example:8080', 'http'), 'http')
    expect(plain).toContain('add "evil.example:8080" to sandbox.allowed_hosts')
    expect(plain).not.toContain('\n')
    const v6 = refusalText(target('[::1]:8443', 'connect'), 'connect')
    expect(v6).toContain('add "[::1]:8443"')
  })
})
