/**
 * What is wrong with a base URL typed in Settings, in a sentence, or null when it is usable (or
 * absent). Checked before anything is sent, so a typo is not reported as a server that "could not
 * be reached".
 */
export function describeBaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  const shown = JSON.stringify(raw)
  const space = raw.search(/\s/)
  if (space >= 0) {
    return `The base URL ${shown} contains a space at character ${space + 1}; remove it.`
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(raw)
  if (!scheme) {
    return `The base URL ${shown} has no scheme: start it with http:// or https:// (for example http://${raw.replace(/^\/+/, '')}).`
  }
  const name = scheme[1]?.toLowerCase() ?? ''
  if (name !== 'http' && name !== 'https') {
    return `The base URL ${shown} is unusable: the scheme "${name}" is not supported; use http:// or https://.`
  }
  const rest = raw.slice(scheme[0].length)
  const authority = rest.split(/[/?#]/, 1)[0] ?? ''
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
  const port = /:(\d*)$/.exec(
    hostPort.startsWith('[') ? hostPort.replace(/^\[[^\]]*\]/, '') : hostPort
  )
  const host = port ? hostPort.slice(0, hostPort.length - port[0].length) : hostPort
  if (!host) {
    return `The base URL ${shown} has no host after ${name}://; name the server, for example ${name}://127.0.0.1:11434/v1.`
  }
  if (port && port[1] !== '' && (Number(port[1]) < 1 || Number(port[1]) > 65535)) {
    return `The base URL ${shown} is unusable: port ${port[1]} is out of range (1–65535).`
  }
  try {
    new URL(raw)
  } catch {
    return `The base URL ${shown} is not a valid address: its host "${host}" is not a host name or an IP address.`
  }
  return null
}
