import { z } from 'zod'

/** The image types a message may carry: the ones every provider we speak to accepts. */
export const imageMediaTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export type ImageMediaType = (typeof imageMediaTypes)[number]

/** Images one message may carry. */
export const MAX_MESSAGE_IMAGES = 8

/**
 * The most bytes one image may have: 3.75 MiB, whose base64 is 5 MiB, the most Anthropic takes
 * for one image (OpenAI takes more), so an image we send is never refused for its size.
 */
export const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024

/**
 * The most image bytes in one message. With the text's worst case (1 MiB, which JSON can grow
 * six times) the call stays under the WebSocket's 16 MiB frame in browser mode: 6 MiB of images
 * is 8 MiB of base64, which JSON never escapes.
 */
export const MAX_MESSAGE_IMAGE_BYTES = 6 * 1024 * 1024

/** Files one message may attach by reference. */
export const MAX_MESSAGE_FILES = 20

/** MCP resources one message may attach. */
export const MAX_MESSAGE_RESOURCES = 10

/**
 * The most UTF-8 bytes of one resource's text the model gets: 256 KiB, a long document. Main cuts
 * a longer one and says so in the attachment's `note`.
 */
export const MAX_RESOURCE_TEXT_BYTES = 256 * 1024

/** The base64 length of `bytes` bytes. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4
}

/** The bytes base64 `data` decodes to, without decoding it. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.floor((data.length * 3) / 4) - padding
}

/**
 * Whether `data` is padded base64, checked by a loop: a regular expression over megabytes of it
 * runs out of stack in V8.
 */
export function isBase64(data: string): boolean {
  if (data.length % 4 !== 0) return false
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  for (let i = 0; i < data.length - padding; i++) {
    const c = data.charCodeAt(i)
    const ok =
      (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47
    if (!ok) return false
  }
  return true
}

/** A pasted or dropped picture, sent to the model as an image. */
export const imageAttachmentSchema = z.object({
  kind: z.literal('image'),
  /** The file's name as the person saw it (a paste gets one made up); for the chip only. */
  name: z.string().min(1).max(255),
  mediaType: z.enum(imageMediaTypes),
  /** The picture, base64; kept once, in the message's transcript item. */
  data: z
    .string()
    .min(4)
    .max(base64Length(MAX_IMAGE_BYTES))
    .refine(isBase64, 'give the image as base64')
})
export type ImageAttachment = z.infer<typeof imageAttachmentSchema>

/** A file of the project, sent as its path for the model to Read. */
export const fileAttachmentSchema = z.object({
  kind: z.literal('file'),
  /** Relative to the project folder, with `/`; checked against the folder's jail in main. */
  path: z.string().min(1).max(4096)
})
export type FileAttachment = z.infer<typeof fileAttachmentSchema>

/** A resource URI: no whitespace or control characters, so it cannot break a line it is put in. */
const resourceUriSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((uri) => !/[\s\p{Cc}]/u.test(uri), 'give the resource URI without spaces')

/**
 * An MCP server's resource, read by main from the server when the message is sent. The window
 * names it (`server`, `uri`, `name` for the chip); main fills the rest from what the server
 * answered, whatever the window put there. Its text is untrusted content from outside.
 */
export const resourceAttachmentSchema = z.object({
  kind: z.literal('resource'),
  /** The MCP server's name in the settings. */
  server: z.string().min(1).max(200),
  uri: resourceUriSchema,
  /** The resource's name as the server lists it; for the chip and the model's heading. */
  name: z.string().max(255).optional(),
  mimeType: z.string().max(255).optional(),
  /** The resource's text as read, at most MAX_RESOURCE_TEXT_BYTES; kept in the transcript item. */
  text: z.string().max(MAX_RESOURCE_TEXT_BYTES).optional(),
  /** What was left out: the text cut, binary parts described rather than sent. */
  note: z.string().max(2000).optional()
})
export type ResourceAttachment = z.infer<typeof resourceAttachmentSchema>

/**
 * A resource as the window asks for it: zod drops any `text`, `note` or `mimeType` it sent, so a
 * message's call stays small and only what main read reaches the model.
 */
export const resourceRequestSchema = resourceAttachmentSchema.pick({
  kind: true,
  server: true,
  uri: true,
  name: true
})
export type ResourceRequest = z.infer<typeof resourceRequestSchema>

/** What a transcript item keeps: images, files and resources as read. */
export const attachmentSchema = z.discriminatedUnion('kind', [
  imageAttachmentSchema,
  fileAttachmentSchema,
  resourceAttachmentSchema
])
export type Attachment = z.infer<typeof attachmentSchema>

/** What `session.send` takes: images, files, and resources by server and URI. */
export const sentAttachmentSchema = z.discriminatedUnion('kind', [
  imageAttachmentSchema,
  fileAttachmentSchema,
  resourceRequestSchema
])
export type SentAttachment = z.infer<typeof sentAttachmentSchema>

/** "1.2 MB": sizes in the sentences, rounded up so a size over a limit never reads as within. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`
  return `${(Math.ceil((bytes / (1024 * 1024)) * 10) / 10).toFixed(1)} MB`
}

/** The byte size of an image attachment. */
export function imageBytes(image: Pick<ImageAttachment, 'data'>): number {
  return base64Bytes(image.data)
}

/**
 * Null when a message may carry `attachments`; otherwise the sentence to show, saying which limit
 * was passed and what to do. The window asks before sending and the contract asks again.
 */
export function attachmentsProblem(attachments: readonly SentAttachment[]): string | null {
  const images = attachments.filter((a): a is ImageAttachment => a.kind === 'image')
  const files = attachments.filter((a) => a.kind === 'file').length
  const resources = attachments.filter((a) => a.kind === 'resource').length
  if (images.length > MAX_MESSAGE_IMAGES) {
    return `This message has ${images.length} images; one message carries at most ${MAX_MESSAGE_IMAGES}. Remove some and send them in the next message.`
  }
  if (files > MAX_MESSAGE_FILES) {
    return `This message attaches ${files} files; one message attaches at most ${MAX_MESSAGE_FILES}. Remove some, or name a folder in the text instead.`
  }
  if (resources > MAX_MESSAGE_RESOURCES) {
    return `This message attaches ${resources} MCP resources; one message attaches at most ${MAX_MESSAGE_RESOURCES}. Remove some and attach them to the next message.`
  }
  for (const image of images) {
    const problem = imageProblem(image.name, imageBytes(image))
    if (problem) return problem
  }
  const total = images.reduce((sum, image) => sum + imageBytes(image), 0)
  if (total > MAX_MESSAGE_IMAGE_BYTES) {
    return `The images come to ${formatBytes(total)}; one message carries at most ${formatBytes(MAX_MESSAGE_IMAGE_BYTES)} of images. Remove some and send them in the next message.`
  }
  return null
}

/** Null when one image of `bytes` bytes may be sent; otherwise why not. */
export function imageProblem(name: string, bytes: number): string | null {
  if (bytes <= MAX_IMAGE_BYTES) return null
  return `${name} is ${formatBytes(bytes)}; an image may be at most ${formatBytes(MAX_IMAGE_BYTES)}. Attach a smaller copy.`
}

/** The sentence for an image sent to a model that cannot see it. */
export function imagesRefusal(model: string): string {
  return `${model} does not take images; pick a model that does, or remove the image`
}

/** The line the model gets for an attached file: what it is and how to look at it. */
export function attachedFileLine(path: string): string {
  return `Attached file: ${path} (read it with the Read tool)`
}

/** How a resource is named on its chip: `server: name`. */
export function resourceLabel(
  resource: Pick<ResourceAttachment, 'server' | 'uri' | 'name'>
): string {
  return `${resource.server}: ${resource.name || resource.uri}`
}
