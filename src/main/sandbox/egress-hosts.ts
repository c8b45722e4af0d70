// The host grammar of the egress proxy: what an entry of `sandbox.allowed_hosts` means and what
// a request's target is. Both sides go through the same strict parser so that the name compared
// is exactly the name connected to: anything a resolver could read two ways (an IPv4 address in
// hex, octal, decimal or short form, a percent-escape, userinfo, a zone id) is malformed here
// rather than normalised, so it can never match by accident.
import ipaddr from 'ipaddr.js'

/** Which kind of proxy request a target came from; each has its own default port. */
export type EgressKind = 'connect' | 'http'

/** The port an entry without one allows: https tunnels on 443, plain http on 80. */
export const DEFAULT_PORTS: Readonly<Record<EgressKind, number>> = { connect: 443, http: 80 }

/** A host as the proxy compares and connects to it. */
export interface ParsedHost {
  /** `name` matches entries by name only; `ip` matches only the same literal address. */
  kind: 'name' | 'ip'
  /** Lower case, no trailing dot; an IPv6 address in its RFC 5952 form without brackets. */
  host: string
  /** IPv6 literals need brackets in an authority. */
  ipv6: boolean
}

/** One parsed entry of `sandbox.allowed_hosts`. */
export interface AllowedHost extends ParsedHost {
  /** `*.example.com`: any subdomain of `host`, never `host` itself. */
  wildcard: boolean
  /** Null: the default port of each kind (443 for CONNECT, 80 for plain http). */
  port: number | null
}

/** A request's destination: where the proxy would connect. */
export interface EgressTarget extends ParsedHost {
  port: number
}

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/
const PORT = /^[1-9]\d{0,4}$/

/** Parses a host name, IPv4 or bracketed IPv6 literal; returns a reason when it is not one. */
export function parseHost(text: string): ParsedHost | string {
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) return `"${text}" opens a bracket it does not close`
    const inner = text.slice(1, -1)
    // ipaddr.js accepts zone ids (fe80::1%eth0); an address with one names a local link.
    if (inner.includes('%') || !ipaddr.IPv6.isValid(inner)) {
      return `"${text}" is not an IPv6 address`
    }
    return { kind: 'ip', host: ipaddr.IPv6.parse(inner).toString(), ipv6: true }
  }
  const name = (text.endsWith('.') ? text.slice(0, -1) : text).toLowerCase()
  if (name.length === 0 || name.length > 253) return `"${text}" is not a host name`
  const labels = name.split('.')
  if (!labels.every((label) => LABEL.test(label))) {
    return `"${text}" is not a host name (letters, digits, hyphens and dots only)`
  }
  if (ipaddr.IPv4.isValid(name)) {
    // A resolver reads 0x7f.1, 2130706433 and 010.0.0.1 as addresses: only the plain
    // dotted-decimal form is an address here, and nothing else that looks numeric is a name.
    // (ipaddr.js's four-part form has no leading zeros, which resolvers read as octal.)
    if (!ipaddr.IPv4.isValidFourPartDecimal(name)) {
      return `"${text}" is an IPv4 address in a non-canonical form; write it as a.b.c.d`
    }
    return { kind: 'ip', host: name, ipv6: false }
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return `"${text}" is neither a host name nor an IPv4 address`
  }
  return { kind: 'name', host: name, ipv6: false }
}

/** Splits `host[:port]` (IPv6 in brackets); the port is null when the authority has none. */
function splitAuthority(text: string): { host: string; port: number | null } | string {
  const bracket = text.startsWith('[') ? text.indexOf(']') : -1
  const colon = text.indexOf(':', bracket + 1)
  if (bracket < 0 && text.startsWith('[')) return `"${text}" opens a bracket it does not close`
  if (colon < 0) return { host: text, port: null }
  const portText = text.slice(colon + 1)
  if (!PORT.test(portText) || Number(portText) > 65535) {
    return `"${text}" has no valid port after the colon (1 to 65535)`
  }
  return { host: text.slice(0, colon), port: Number(portText) }
}

/**
 * Parses an authority from a request (the CONNECT target or the authority of an absolute URI).
 * `defaultPort` null means the port is required, as it is for CONNECT.
 */
export function parseTarget(authority: string, defaultPort: number | null): EgressTarget | string {
  if (authority.includes('@')) return `"${authority}" carries userinfo, which a proxy never takes`
  const split = splitAuthority(authority)
  if (typeof split === 'string') return split
  const port = split.port ?? defaultPort
  if (port === null) return `"${authority}" has no port; CONNECT needs host:port`
  const host = parseHost(split.host)
  if (typeof host === 'string') return host
  return { ...host, port }
}

/** Parses one entry of `sandbox.allowed_hosts`; throws with the reason when it is not one. */
export function parseAllowedHost(entry: string): AllowedHost {
  const wildcard = entry.startsWith('*.')
  const split = splitAuthority(wildcard ? entry.slice(2) : entry)
  const host = typeof split === 'string' ? split : parseHost(split.host)
  if (typeof split === 'string' || typeof host === 'string') {
    throw new Error(`sandbox.allowed_hosts entry ${JSON.stringify(entry)}: ${String(host)}`)
  }
  if (wildcard && host.kind === 'ip') {
    throw new Error(
      `sandbox.allowed_hosts entry "${entry}": a wildcard needs a name, not an address`
    )
  }
  return { ...host, wildcard, port: split.port }
}

function hostMatches(entry: AllowedHost, target: EgressTarget): boolean {
  if (entry.kind !== target.kind) return false
  if (!entry.wildcard) return entry.host === target.host
  return target.host.endsWith(`.${entry.host}`)
}

/** True when some entry allows `target` for this kind of request. */
export function isAllowed(
  entries: readonly AllowedHost[],
  target: EgressTarget,
  kind: EgressKind
): boolean {
  return entries.some(
    (entry) => hostMatches(entry, target) && (entry.port ?? DEFAULT_PORTS[kind]) === target.port
  )
}

/** The host in authority form, brackets for IPv6, port left out when it is the default. */
export function formatAuthority(target: EgressTarget, defaultPort: number | null): string {
  const host = target.ipv6 ? `[${target.host}]` : target.host
  return target.port === defaultPort ? host : `${host}:${target.port}`
}

/** The one-line body of a refusal: which host, and what the person can do about it. */
export function refusalText(target: EgressTarget, kind: EgressKind): string {
  const entry = formatAuthority(target, DEFAULT_PORTS[kind])
  const what = kind === 'connect' ? 'a tunnel to' : 'a request to'
  return (
    `Mecatl's sandbox proxy refused ${what} ${formatAuthority(target, null)}: it is not in ` +
    `sandbox.allowed_hosts. To allow it, add "${entry}" to sandbox.allowed_hosts in Settings → ` +
    `Permissions.`
  )
}
