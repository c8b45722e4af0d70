import { stat } from 'node:fs/promises'
import path from 'node:path'
import { RpcError } from '../../shared/contract'
import {
  imagesRefusal,
  type Attachment,
  type FileAttachment,
  type ImageAttachment,
  type SentAttachment
} from '../../shared/attachments'
import type { ModelRef } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import { modelRefSupportsImages } from '../providers/model-capabilities'
import { sniffImage } from '../tools/fs/image-info'
import type { PathJail } from '../workspace/path-jail'
import { readResourceAttachment, type ResourceReader } from './resource-attachment'

/** Whether the model the message goes to takes images, and its name for the sentence. */
export interface ImageTaker {
  model: string
  images: boolean
}

/**
 * The model a session's next turn goes to, as the turn assembler picks it (the session's own, or
 * the default for a session that has none yet), and whether it takes images.
 */
export function imageTaker(model: ModelRef | null, settings: Settings): ImageTaker {
  const fallback = settings.default_model
  const ref = model ?? (fallback ? { providerId: fallback.provider, model: fallback.model } : null)
  return { model: ref?.model ?? 'This model', images: modelRefSupportsImages(ref, settings) }
}

/**
 * What a message may carry, checked in main whatever the window checked: images only for a
 * model that takes them, and only pictures whose bytes are what they claim; files only inside
 * the project folder, as the jail resolves them, recorded by their project-relative path; MCP
 * resources read from their server by `readResource` (null: none can be attached), whatever text
 * the window sent. Throws the sentence for the person when anything fails; nothing is sent then.
 */
export async function checkAttachments(
  attachments: readonly SentAttachment[],
  jail: PathJail,
  taker: ImageTaker,
  readResource: ResourceReader | null = null
): Promise<Attachment[]> {
  const checked: Attachment[] = []
  const seen = new Set<string>()
  const seenResources = new Set<string>()
  for (const attachment of attachments) {
    if (attachment.kind === 'image') {
      if (!taker.images) throw new RpcError('invalid_input', imagesRefusal(taker.model))
      checked.push(checkImage(attachment))
      continue
    }
    if (attachment.kind === 'resource') {
      const key = JSON.stringify([attachment.server, attachment.uri])
      if (seenResources.has(key)) continue
      seenResources.add(key)
      checked.push(await readResourceAttachment(attachment, readResource))
      continue
    }
    const file = await checkFile(attachment, jail)
    if (seen.has(file.path)) continue
    seen.add(file.path)
    checked.push(file)
  }
  return checked
}

function checkImage(image: ImageAttachment): ImageAttachment {
  const name = path.basename(image.name.replace(/\\/g, '/')) || 'image'
  const sniffed = sniffImage(Buffer.from(image.data.slice(0, 8192), 'base64'))
  if (!sniffed) {
    throw new RpcError(
      'invalid_input',
      `${name} is not a PNG, JPEG, GIF or WebP image; only those can be sent. Convert it to PNG and attach it again`
    )
  }
  // What the bytes say wins over what the window said: a provider refuses a mislabelled image.
  return { kind: 'image', name, mediaType: sniffed.mediaType, data: image.data }
}

async function checkFile(file: FileAttachment, jail: PathJail): Promise<FileAttachment> {
  const requested = file.path
  const shown = JSON.stringify(requested)
  if (path.isAbsolute(requested) || /^[a-zA-Z]:/.test(requested)) {
    throw new RpcError(
      'invalid_input',
      `${shown} is not a path relative to the project folder; pick the file with Attach file`
    )
  }
  const resolved = await jail.resolve(requested, 'read')
  // The jail also lets reads reach the spill directory and skill folders: not for attaching.
  if (!resolved.ok || resolved.root !== jail.root) {
    throw new RpcError(
      'invalid_input',
      `${shown} is outside the project folder (${jail.root}); only files inside it can be attached`
    )
  }
  const relative = path.relative(jail.root, resolved.path).split(path.sep).join('/')
  const info = await stat(resolved.path).catch(() => null)
  if (!info) {
    throw new RpcError(
      'invalid_input',
      `${shown} does not exist in the project folder; pick the file again with Attach file`
    )
  }
  if (!info.isFile()) {
    throw new RpcError(
      'invalid_input',
      `${shown} is not a file; attach files one at a time, or name the folder in the message`
    )
  }
  return { kind: 'file', path: relative }
}
