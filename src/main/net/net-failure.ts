interface NetCause {
  code?: string
  address?: string
  port?: number
  hostname?: string
}

/** The network error codes anywhere in an error's cause chain (SDK → fetch → socket). */
function netCauses(error: unknown): NetCause[] {
  const found: NetCause[] = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && current && typeof current === 'object'; depth++) {
    const record = current as NetCause & { cause?: unknown; errors?: unknown }
    if (typeof record.code === 'string') found.push(record)
    // Node's happy-eyeballs connect reports each address it tried in an AggregateError.
    if (Array.isArray(record.errors)) found.push(...record.errors.flatMap((e) => netCauses(e)))
    current = record.cause
  }
  return found
}

/** Whether fetch refused the port itself (undici's list of ports kept for other protocols). */
function blockedPort(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current.message === 'bad port') return true
    current = current.cause
  }
  return false
}

function hostOf(base: string): string {
  try {
    const url = new URL(base)
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    return `${url.hostname}:${port}`
  } catch {
    return base
  }
}

/**
 * Why a request to `address` never got an answer, in words a person can act on (refused, timed
 * out, not found in DNS, a port fetch will not use), or null when the error is not one of those.
 * `what` names the setting that holds the address ("base URL", "url"); `signal` is the one the
 * request ran under: aborted means it ran out of time.
 */
export function describeUnreachable(
  error: unknown,
  address: string,
  what: string,
  signal?: AbortSignal
): string | null {
  const causes = netCauses(error)
  const codes = new Set(causes.map((c) => c.code))
  const where = `${address} (${hostOf(address)})`
  if (codes.has('ENOTFOUND') || codes.has('EAI_AGAIN')) {
    const host = causes.find((c) => c.hostname)?.hostname ?? hostOf(address).replace(/:\d+$/, '')
    return `Could not connect to ${address}: the host name "${host}" was not found (DNS). Check the spelling of the ${what}, or your network's name server.`
  }
  if (blockedPort(error)) {
    return `Could not connect to ${where}: its port is one the HTTP client will not use, because it belongs to another protocol (such as 9, 25 or 6000). Run the server on another port, such as 8080.`
  }
  if (codes.has('ECONNREFUSED')) {
    return `Could not connect to ${where}: it refused the connection: nothing is listening there. Start the server, or check the ${what}'s host and port.`
  }
  const timedOut =
    codes.has('ETIMEDOUT') ||
    codes.has('UND_ERR_CONNECT_TIMEOUT') ||
    (error instanceof Error && error.name === 'APIConnectionTimeoutError') ||
    Boolean(signal?.aborted)
  if (timedOut) {
    return `Could not connect to ${where}: it did not answer in time. Check that the server is running and reachable from this machine (a firewall or a proxy may hold the connection).`
  }
  if (codes.has('ECONNRESET') || codes.has('EHOSTUNREACH') || codes.has('ENETUNREACH')) {
    const code = [...codes].find((c) => c && c.startsWith('E'))
    return `Could not connect to ${where}: the network said ${code}. Check that this machine can reach that address.`
  }
  const certificate = [...codes].find(
    (c) => c && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(c)
  )
  if (certificate) {
    return `Could not connect to ${where} securely: its certificate was not accepted (${certificate}). Check the address, or the server's certificate.`
  }
  return null
}
