import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'

/** One answer of a name lookup. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has; injectable so tests can play a rebinding DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export interface GuardOptions {
  resolver?: Resolver
  /**
   * Test only: let 127.0.0.0/8 and ::1 through so tests can serve pages locally. Off by default;
   * only code that builds the core itself sets it (CoreOptions.webGuard, from testing).
   */
  allowLoopback?: boolean
}

/** A host that passed: the addresses it may be reached at, all globally routable. */
export interface VettedHost {
  hostname: string
  addresses: ResolvedAddress[]
}

/** A destination refused by the guard, said so the model knows not to retry it. */
export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BlockedAddressError'
  }
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true })
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

// Global unicast IPv6 lives in 2000::/3; everything else (IPv4-compatible ::a.b.c.d included,
// which ipaddr.js calls unicast) is refused.
const globalUnicast6 = ipaddr.IPv6.parseCIDR('2000::/3')

/**
 * Why an address is not one the web tools may reach, or null when it is globally routable
 * unicast. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function refusalFor(address: string, allowLoopback = false): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  }
  const range = parsed.range()
  if (allowLoopback && range === 'loopback') return null
  if (range !== 'unicast') return `${address} is a ${describeRange(range)} address`
  if (parsed.kind() === 'ipv6' && !parsed.match(globalUnicast6)) {
    return `${address} is not a globally routable IPv6 address`
  }
  return null
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private (RFC 1918)',
    linkLocal: 'link-local',
    carrierGradeNat: 'carrier-grade NAT',
    multicast: 'multicast',
    unspecified: 'unspecified',
    broadcast: 'broadcast',
    reserved: 'reserved',
    uniqueLocal: 'unique-local',
    ipv4Mapped: 'IPv4-mapped',
    rfc6052: 'NAT64 (IPv4-embedding)',
    '6to4': '6to4 (IPv4-embedding)',
    teredo: 'Teredo (IPv4-embedding)',
    discard: 'discard-only',
    deprecatedSiteLocal: 'site-local'
  }
  return names[range] ?? `non-public (${range})`
}

/**
 * Checks the host of a URL the WHATWG parser has already normalised (so decimal, octal, hex and
 * short IPv4 forms, percent-encoding and trailing dots are in canonical form here). IP literals
 * are checked as they are; a name is resolved and every address it has must pass.
 */
export async function vetHost(url: URL, options: GuardOptions = {}): Promise<VettedHost> {
  const allowLoopback = options.allowLoopback ?? false
  const host = url.hostname
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  if (ipaddr.isValid(literal)) {
    const refusal = refusalFor(literal, allowLoopback)
    if (refusal) throw new BlockedAddressError(blockedMessage(url, refusal))
    return { hostname: literal, addresses: [{ address: literal, family: familyOf(literal) }] }
  }
  const name = host.replace(/\.$/, '').toLowerCase()
  if (name === '' || name === 'localhost' || name.endsWith('.localhost')) {
    throw new BlockedAddressError(blockedMessage(url, `${host} names this machine`))
  }
  let answers: ResolvedAddress[]
  try {
    answers = await (options.resolver ?? systemResolver)(name)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new BlockedAddressError(`${host} could not be resolved (${code}); check the address`)
  }
  if (answers.length === 0) {
    throw new BlockedAddressError(`${host} has no address; check the address`)
  }
  // One bad answer refuses the name: a rebinding server mixes a public and a private one.
  for (const answer of answers) {
    const refusal = refusalFor(answer.address, allowLoopback)
    if (refusal)
      throw new BlockedAddressError(blockedMessage(url, `${host} resolves to ${refusal}`))
  }
  return { hostname: name, addresses: answers }
}

function familyOf(address: string): 4 | 6 {
  return ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4
}

function blockedMessage(url: URL, why: string): string {
  return `Refused ${url.origin}: ${why}. The web tools reach only public internet addresses, never this machine or its local network; do not retry it.`
}
