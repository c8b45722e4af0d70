import { z } from 'zod'

/**
 * The most UTF-8 bytes one message may hold. The WebSocket takes frames up to 16 MiB, and JSON
 * can grow text up to six times (a control character becomes `\u0000`), so 1 MiB always fits in
 * one frame; it is also more than any model's context takes in one message, so a bigger paste
 * belongs in a file the model reads in parts.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024

/** The UTF-8 length of `text` as it goes on the wire (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) bytes += 1
    else if (unit < 0x800) bytes += 2
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}

/** Megabytes for the sentence, rounded up so a message over the limit never reads as within it. */
function megabytes(bytes: number): string {
  return (Math.ceil((bytes / MAX_MESSAGE_BYTES) * 10) / 10).toFixed(1)
}

/**
 * Null when `text` may be sent; otherwise the sentence to show, saying how big it is and what to
 * do instead. Cheap for the common case: text short enough is decided by its length alone (a
 * UTF-16 code unit takes at most three UTF-8 bytes), so the composer can ask on every keystroke.
 */
export function messageSizeProblem(text: string): string | null {
  if (text.length * 3 <= MAX_MESSAGE_BYTES) return null
  const bytes = utf8Length(text)
  if (bytes <= MAX_MESSAGE_BYTES) return null
  return (
    `This message is ${megabytes(bytes)} MB; Mecatl sends at most 1 MB at a time. ` +
    'Save it to a file in the project and ask the model to read it.'
  )
}

/** A message's text in a call: not empty, and within {@link MAX_MESSAGE_BYTES}. */
export const messageTextSchema = z
  .string()
  .min(1)
  .superRefine((text, ctx) => {
    const problem = messageSizeProblem(text)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
