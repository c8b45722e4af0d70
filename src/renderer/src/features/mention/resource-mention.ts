import type { McpStatus } from '../../../../shared/mcp'
import type { ResourceRequest } from '../../../../shared/attachments'

/** A resource a ready server offers, as the pickers list it. */
export interface ResourceChoice {
  server: string
  uri: string
  name: string
  mimeType: string | null
  description: string | null
}

/** Every resource of the servers that are ready, in the order the servers and they are listed. */
export function resourceChoices(status: McpStatus | null): ResourceChoice[] {
  if (!status) return []
  return status.servers.flatMap((server) =>
    server.state === 'ready'
      ? server.resources.map((r) => ({
          server: server.name,
          uri: r.uri,
          name: r.name,
          mimeType: r.mimeType,
          description: r.description
        }))
      : []
  )
}

/** What the box sends for a picked resource: main reads the rest. */
export function resourceRequest(choice: ResourceChoice): ResourceRequest {
  return { kind: 'resource', server: choice.server, uri: choice.uri, name: choice.name }
}

/** The `@server:filter` being typed: the configured server named before the colon. */
export interface ServerMention {
  server: string
  filter: string
}

/**
 * The `@` query read as `server:filter` when what comes before the first colon is the name of a
 * configured server; null otherwise (a file path, or `me:` that names no server).
 */
export function serverMention(query: string, servers: readonly string[]): ServerMention | null {
  const colon = query.indexOf(':')
  if (colon <= 0) return null
  const server = query.slice(0, colon)
  if (!servers.includes(server)) return null
  return { server, filter: query.slice(colon + 1) }
}

/** The server's resources whose URI or name holds the filter (any case), listed order kept. */
export function matchResources(
  choices: readonly ResourceChoice[],
  mention: ServerMention
): ResourceChoice[] {
  const filter = mention.filter.toLowerCase()
  return choices.filter(
    (c) =>
      c.server === mention.server &&
      (c.uri.toLowerCase().includes(filter) || c.name.toLowerCase().includes(filter))
  )
}

/**
 * The servers with resources that a plain `@query` could mean: those whose name starts with the
 * query (all of them for a bare `@`), so people find out that `@server:` exists.
 */
export function serverEntries(choices: readonly ResourceChoice[], query: string): string[] {
  const wanted = query.toLowerCase()
  const names = [...new Set(choices.map((c) => c.server))]
  return names.filter((name) => name.toLowerCase().startsWith(wanted))
}
