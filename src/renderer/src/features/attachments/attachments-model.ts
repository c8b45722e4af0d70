import {
  attachmentsProblem,
  imageMediaTypes,
  imageProblem,
  imagesRefusal,
  type Attachment,
  type ImageAttachment,
  type ImageMediaType
} from '../../../../shared/attachments'
import type { ModelRef } from '../../../../shared/domain'
import type { ModelInfo } from '../../../../shared/models'

/** What the box holds: the attachments, and the sentence of the last refusal (null: none). */
export interface AttachmentsState {
  items: Attachment[]
  error: string | null
}

export type AttachmentsAction =
  | { type: 'added'; items: Attachment[] }
  | { type: 'removed'; index: number }
  | { type: 'refused'; error: string }
  | { type: 'cleared' }

export const initialAttachments: AttachmentsState = { items: [], error: null }

/**
 * The box's attachments as a pure reducer. A file already attached is not added twice; adding
 * past a limit is refused with its sentence and leaves what was there.
 */
export function attachmentsReducer(
  state: AttachmentsState,
  action: AttachmentsAction
): AttachmentsState {
  switch (action.type) {
    case 'added': {
      const fresh = action.items.filter(
        (item) => item.kind === 'image' || !state.items.some((other) => sameAttachment(other, item))
      )
      const items = [...state.items, ...fresh]
      const problem = attachmentsProblem(items)
      if (problem) return { ...state, error: problem }
      return { items, error: null }
    }
    case 'removed':
      return { items: state.items.filter((_, i) => i !== action.index), error: null }
    case 'refused':
      return { ...state, error: action.error }
    case 'cleared':
      return initialAttachments
  }
}

/** The same project file, or the same resource of the same server: attached once only. */
function sameAttachment(a: Attachment, b: Attachment): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.path === b.path
  if (a.kind === 'resource' && b.kind === 'resource')
    return a.server === b.server && a.uri === b.uri
  return false
}

export function isImageType(type: string): type is ImageMediaType {
  return (imageMediaTypes as readonly string[]).includes(type)
}

/** The extension a pasted picture's made-up name gets. */
const extensions: Record<ImageMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp'
}

/** A name for a picture pasted from the clipboard, which comes without a useful one. */
export function pastedName(type: ImageMediaType, index: number): string {
  return `pasted-image-${index}.${extensions[type]}`
}

/** Base64 of bytes, in slices so a large picture does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary)
}

/** The image a file holds, or the sentence saying why it cannot be attached. */
export async function imageFromFile(
  file: File,
  name: string = file.name
): Promise<ImageAttachment | string> {
  if (!isImageType(file.type)) {
    return `${name || 'That file'} is not a PNG, JPEG, GIF or WebP image. To attach a project file, use Attach file.`
  }
  const tooBig = imageProblem(name, file.size)
  if (tooBig) return tooBig
  const data = toBase64(new Uint8Array(await file.arrayBuffer()))
  // The name is only for the chip: a long one is cut to what the contract keeps.
  const shown = name.length > 255 ? `${name.slice(0, 254)}…` : name || 'image'
  return { kind: 'image', name: shown, mediaType: file.type, data }
}

/**
 * Why the box's images cannot go to the model the message would go to, before anything is sent;
 * null when they can, or when the model is not in the list (main decides then, and says why).
 */
export function imagesProblemFor(
  items: readonly Attachment[],
  models: readonly ModelInfo[],
  model: ModelRef | null
): string | null {
  if (!model || !items.some((item) => item.kind === 'image')) return null
  const info = models.find((m) => m.providerId === model.providerId && m.model === model.model)
  if (!info || info.images !== false) return null
  return imagesRefusal(model.model)
}

/** The data URL a chip shows an image by. */
export function imageUrl(image: Pick<ImageAttachment, 'mediaType' | 'data'>): string {
  return `data:${image.mediaType};base64,${image.data}`
}
