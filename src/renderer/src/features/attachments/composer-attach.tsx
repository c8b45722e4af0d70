import type { ClipboardEvent, DragEvent, ReactNode } from 'react'
import type { Attachment, ResourceRequest } from '../../../../shared/attachments'
import type { ModelRef } from '../../../../shared/domain'
import type { ModelInfo } from '../../../../shared/models'
import { AttachmentChips } from './attachment-chips'
import { imagesProblemFor } from './attachments-model'
import { AttachFileButton } from './file-picker'
import { AttachResourceButton } from './resource-picker'
import { useAttachments } from './use-attachments'

/** What the message box needs of its attachments (see Composer's `attach`). */
export interface ComposerAttach {
  count: number
  chips: ReactNode
  button: ReactNode
  dragging: boolean
  onPaste: (event: ClipboardEvent<HTMLElement>) => void
  dropProps: {
    onDragOver: (event: DragEvent<HTMLElement>) => void
    onDragLeave: (event: DragEvent<HTMLElement>) => void
    onDrop: (event: DragEvent<HTMLElement>) => void
  }
}

/** The attachments of the box, wired for the chat view. */
export interface AttachmentsUi {
  attach: ComposerAttach
  /** The refusal sentence above the box, or null. */
  notice: ReactNode
  /**
   * The attachments to send with the message, or null when they cannot go (the sentence is then
   * shown and everything stays in the box): images for a model that does not take them, or
   * anything while a turn runs (the queue holds text only).
   */
  forSend: (model: ModelRef | null, running: boolean) => Attachment[] | null
  /** Empties the box once the message went. */
  sent: () => void
  /** Adds an MCP resource's chip (the `@server:` finder's pick); stable across renders. */
  attachResource: (resource: ResourceRequest) => void
}

/** Attachments for the session shown: chips in the box, Attach file and resource, paste, drop. */
export function useAttachmentsUi(
  sessionId: string | null,
  disabled: boolean,
  /** The models the providers offer and the default one: an image needs one that sees. */
  { models, defaultModel }: { models: readonly ModelInfo[]; defaultModel: ModelRef | null }
): AttachmentsUi {
  const box = useAttachments(sessionId)
  return {
    attach: {
      count: box.items.length,
      chips: <AttachmentChips attachments={box.items} onRemove={box.remove} />,
      button: (
        <>
          <AttachFileButton sessionId={sessionId} disabled={disabled} onPick={box.attachFile} />
          <AttachResourceButton disabled={disabled} onPick={box.attachResource} />
        </>
      ),
      dragging: box.dragging,
      onPaste: box.onPaste,
      dropProps: box.dropProps
    },
    notice: box.error ? (
      <p className="attachments__error" role="alert" data-testid="attach-error">
        {box.error}
      </p>
    ) : null,
    forSend: (model, running) => {
      if (box.items.length === 0) return []
      if (running) {
        box.refuse(
          'Attachments go with a message sent once the turn has ended; wait for it, or press Stop.'
        )
        return null
      }
      const problem = imagesProblemFor(box.items, models, model ?? defaultModel)
      if (problem) {
        box.refuse(problem)
        return null
      }
      return box.items
    },
    sent: box.clear,
    attachResource: box.attachResource
  }
}
