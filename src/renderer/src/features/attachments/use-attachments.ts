import {
  useCallback,
  useEffect,
  useReducer,
  useRef,
  useState,
  type ClipboardEvent,
  type DragEvent
} from 'react'
import type { Attachment, ResourceRequest } from '../../../../shared/attachments'
import {
  attachmentsReducer,
  imageFromFile,
  initialAttachments,
  isImageType,
  pastedName
} from './attachments-model'
import { droppedProjectPath } from './dropped-path'
import { useProjectFolder } from '../sessions'

/** The message box's attachments and the handlers that fill it. */
export interface AttachmentsBox {
  items: Attachment[]
  /** The sentence of the last refusal, shown above the box; null when there is none. */
  error: string | null
  dragging: boolean
  remove: (index: number) => void
  clear: () => void
  refuse: (error: string) => void
  attachFile: (path: string) => void
  /** Adds an MCP resource's chip; main reads it when the message is sent. */
  attachResource: (resource: ResourceRequest) => void
  onPaste: (event: ClipboardEvent<HTMLElement>) => void
  dropProps: {
    onDragOver: (event: DragEvent<HTMLElement>) => void
    onDragLeave: (event: DragEvent<HTMLElement>) => void
    onDrop: (event: DragEvent<HTMLElement>) => void
  }
}

function hasFiles(event: DragEvent<HTMLElement>): boolean {
  return Array.from(event.dataTransfer.types).includes('Files')
}

/**
 * The box's attachments for the session shown: pasted and dropped pictures become image chips.
 * A dropped file that is no picture becomes a project file's chip on the desktop, whose preload
 * says where it lives (the core checks that path against the jail); in a browser, which never
 * says, it is refused with a sentence pointing to Attach file. Emptied when another session is
 * shown.
 */
export function useAttachments(sessionId: string | null): AttachmentsBox {
  const [state, dispatch] = useReducer(attachmentsReducer, initialAttachments)
  const [dragging, setDragging] = useState(false)
  const pasted = useRef(0)
  const folder = useProjectFolder()

  useEffect(() => dispatch({ type: 'cleared' }), [sessionId])
  // Stable, so the `@` finder that is given it does not work its lists out again every render.
  const attachResource = useCallback(
    (resource: ResourceRequest): void => dispatch({ type: 'added', items: [resource] }),
    []
  )

  const addFiles = useCallback(
    async (files: File[], fromPaste: boolean): Promise<void> => {
      const added: Attachment[] = []
      let refusal: string | null = null
      for (const file of files) {
        const where = fromPaste || isImageType(file.type) ? '' : projectPathOf(file, folder)
        if (typeof where === 'object') {
          refusal ??= where.refused
          continue
        }
        if (where) {
          added.push({ kind: 'file', path: where })
          continue
        }
        const name =
          fromPaste && isImageType(file.type) ? pastedName(file.type, ++pasted.current) : file.name
        const image = await imageFromFile(file, name)
        if (typeof image === 'string') refusal ??= image
        else added.push(image)
      }
      if (added.length > 0) dispatch({ type: 'added', items: added })
      if (refusal) dispatch({ type: 'refused', error: refusal })
    },
    [folder]
  )

  const onPaste = useCallback(
    (event: ClipboardEvent<HTMLElement>): void => {
      const files = Array.from(event.clipboardData.items)
        .filter((item) => item.kind === 'file')
        .flatMap((item) => item.getAsFile() ?? [])
      if (files.length === 0) return
      // A picture copied with a caption (from a web page) keeps its text in the box too.
      if (!event.clipboardData.getData('text/plain')) event.preventDefault()
      void addFiles(files, true)
    },
    [addFiles]
  )

  const onDragOver = useCallback((event: DragEvent<HTMLElement>): void => {
    if (!hasFiles(event)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setDragging(true)
  }, [])
  const onDragLeave = useCallback((): void => setDragging(false), [])
  const onDrop = useCallback(
    (event: DragEvent<HTMLElement>): void => {
      setDragging(false)
      if (!hasFiles(event)) return
      event.preventDefault()
      void addFiles(Array.from(event.dataTransfer.files), false)
    },
    [addFiles]
  )

  return {
    items: state.items,
    error: state.error,
    dragging,
    remove: (index) => dispatch({ type: 'removed', index }),
    clear: () => dispatch({ type: 'cleared' }),
    refuse: (error) => dispatch({ type: 'refused', error }),
    attachFile: (path) => dispatch({ type: 'added', items: [{ kind: 'file', path }] }),
    attachResource,
    onPaste,
    dropProps: { onDragOver, onDragLeave, onDrop }
  }
}

/**
 * A dropped file's project path on the desktop, its refusal when it lies outside the project,
 * or '' where the window cannot know where it lives (a browser): then only an image can come.
 */
function projectPathOf(file: File, folder: string): string | { refused: string } {
  const absolute = window.mecatl?.pathForFile?.(file) ?? ''
  return absolute ? droppedProjectPath(absolute, folder) : ''
}
