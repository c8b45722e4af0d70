import type { FileHandle } from 'node:fs/promises'
import { errorOutput, type ToolContext, type ToolOutput } from '../tool'
import type { ImageInfo } from './image-info'
import { humanBytes } from './lines'

/** What Read was asked beyond the path: images are shown whole, so these must be absent. */
export interface ImageReadRequest {
  shown: string
  offset: number | undefined
  limit: number | undefined
}

/**
 * Read's answer for an image: the picture itself when the session's model takes images, else a
 * sentence saying what the file is, so the model neither gets bytes it cannot use nor garbage.
 */
export function imageOutput(
  request: ImageReadRequest,
  image: ImageInfo,
  bytes: Buffer,
  ctx: ToolContext
): ToolOutput {
  const { shown } = request
  if (request.offset !== undefined || request.limit !== undefined) {
    return errorOutput(
      `\`${shown}\` is a ${image.format} image; offset and limit apply to text files, so Read it with just the path`
    )
  }
  const size =
    image.width !== null && image.height !== null ? `${image.width}×${image.height}, ` : ''
  const about = `\`${shown}\` is a ${image.format} image, ${size}${humanBytes(bytes.length)}`
  const display = {
    kind: 'image' as const,
    path: shown,
    mediaType: image.mediaType,
    bytes: bytes.length
  }
  if (!ctx.modelSupportsImages) {
    return {
      content: [{ type: 'text', text: `${about}; this model does not take images` }],
      isError: false,
      external: false,
      display
    }
  }
  return {
    content: [
      { type: 'text', text: about },
      { type: 'image', mediaType: image.mediaType, data: bytes.toString('base64') }
    ],
    isError: false,
    external: false,
    display
  }
}

/** The first bytes of an open file: enough to recognise an image without reading all of it. */
export async function readHead(handle: FileHandle, length = 4096): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, 0)
  return buffer.subarray(0, bytesRead)
}

/** Why an image over the limit is not shown, in words that say what can be done instead. */
export function tooLargeImage(shown: string, image: ImageInfo, size: number): string {
  return `\`${shown}\` is a ${image.format} image of ${humanBytes(size)}; images over 10 MiB are not shown, so look at a smaller copy instead`
}
