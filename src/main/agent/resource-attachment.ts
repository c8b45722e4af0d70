import {
  base64Bytes,
  formatBytes,
  MAX_RESOURCE_TEXT_BYTES,
  type ResourceAttachment,
  type ResourceRequest
} from '../../shared/attachments'
import { RpcError } from '../../shared/contract'
import type { ReadResource } from '../mcp/read-resource'

/** Reads a resource of the session's project servers (see McpManager.readResource). */
export type ResourceReader = (server: string, uri: string) => Promise<ReadResource>

/**
 * A resource named by the window, read from its server in main: its text parts kept (cut at
 * MAX_RESOURCE_TEXT_BYTES), its binary parts described in the note rather than sent, its name
 * and type from the server's listing. Throws the sentence for the person when it cannot be read,
 * so nothing is sent and the draft stays.
 */
export async function readResourceAttachment(
  request: ResourceRequest,
  read: ResourceReader | null
): Promise<ResourceAttachment> {
  const { server, uri } = request
  const refuse = (why: string): never => {
    throw new RpcError(
      'invalid_input',
      `Could not attach ${uri} from the MCP server "${server}": ${why}. Nothing was sent; remove the resource or try again.`
    )
  }
  if (!read) return refuse('MCP resources cannot be attached here')
  const answer = await read(server, uri).catch((error: unknown) =>
    refuse(error instanceof Error ? error.message : String(error))
  )
  return resourceFromContents(request, answer)
}

/** What a read gave, as the attachment the transcript keeps and the model gets. */
export function resourceFromContents(
  request: ResourceRequest,
  { listed, contents }: ReadResource
): ResourceAttachment {
  const texts: string[] = []
  const notes: string[] = []
  for (const part of contents) {
    if ('text' in part && typeof part.text === 'string') {
      texts.push(part.text)
      continue
    }
    const bytes = 'blob' in part && typeof part.blob === 'string' ? base64Bytes(part.blob) : 0
    const mime = plainType(part.mimeType) ?? 'unknown type'
    notes.push(`a binary part (${mime}, ${formatBytes(bytes)}) was not sent`)
  }
  const whole = cleanText(texts.join('\n\n'))
  const cut = cutUtf8(whole, MAX_RESOURCE_TEXT_BYTES)
  if (cut.length < whole.length) {
    const size = formatBytes(Buffer.byteLength(whole, 'utf8'))
    notes.unshift(
      `the text was cut to its first ${formatBytes(MAX_RESOURCE_TEXT_BYTES)} of ${size}`
    )
  }
  const mimeType = plainType(listed?.mimeType ?? contents[0]?.mimeType)
  const name = (listed?.name ?? request.name ?? '').slice(0, 255)
  return {
    kind: 'resource',
    server: request.server,
    uri: request.uri,
    ...(name ? { name } : {}),
    ...(mimeType ? { mimeType } : {}),
    text: cut,
    ...(notes.length > 0 ? { note: capitalised(notes.join('; ')).slice(0, 2000) } : {})
  }
  function capitalised(text: string): string {
    return text.charAt(0).toUpperCase() + text.slice(1)
  }
}

/**
 * A media type as `type/subtype`, or undefined: the server chose it, and it goes unquoted into
 * the model's heading, so anything else (a line break, a sentence) is dropped.
 */
function plainType(mimeType: string | null | undefined): string | undefined {
  const bare = mimeType?.split(';')[0]?.trim() ?? ''
  return /^[\w!#$&^.+-]{1,100}\/[\w!#$&^.+-]{1,100}$/.test(bare) ? bare : undefined
}

/**
 * Control characters other than tab and line breaks taken out: a terminal escape or a NUL means
 * nothing to the model, and without them JSON never grows the text more than twice.
 */
function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
}

/** The longest start of `text` within `limit` UTF-8 bytes, never splitting a character. */
export function cutUtf8(text: string, limit: number): string {
  if (Buffer.byteLength(text, 'utf8') <= limit) return text
  const bytes = Buffer.from(text, 'utf8')
  let end = limit
  // Back to the first byte of the character the limit falls in (continuation bytes are 10xxxxxx).
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}
