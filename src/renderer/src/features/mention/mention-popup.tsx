import { useEffect, useRef, type JSX, type ReactNode } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { FileIcon, FolderIcon } from '../../lib/icons'
import './mention.css'

type Item = CallOutput<'files.find'>['items'][number]

interface Props {
  items: Item[]
  selected: Item | undefined
  loading: boolean
  total: number
  complete: boolean
  error: string | null
  onPick: (item: Item) => void
  onHover: (item: Item) => void
}

/** A path with the characters the query matched in bold. */
function highlighted(path: string, positions: readonly number[]): ReactNode[] {
  const marked = new Set(positions)
  const parts: ReactNode[] = []
  let run = ''
  let runMarked = false
  const flush = (): void => {
    if (run === '') return
    parts.push(runMarked ? <mark key={parts.length}>{run}</mark> : run)
    run = ''
  }
  for (let i = 0; i < path.length; i++) {
    const isMarked = marked.has(i)
    if (isMarked !== runMarked) {
      flush()
      runMarked = isMarked
    }
    run += path.charAt(i)
  }
  flush()
  return parts
}

/** The `@` finder's list, above the chat input. */
export function MentionPopup(props: Props): JSX.Element {
  const { items, selected, total } = props
  const list = useRef<HTMLUListElement>(null)

  // Keep the chosen line in view as the arrows move through a long list.
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' })
  }, [selected])

  let footer: string
  if (props.error) footer = `Could not list the project's files: ${props.error}`
  else if (props.loading) footer = 'Listing the project’s files…'
  else if (items.length === 0) footer = 'No file or folder matches · Esc to close'
  else {
    const shown = total > items.length ? `${items.length} of ${total}` : `${total}`
    const more = props.complete ? '' : ' · the project has more files than are listed'
    footer = `${shown} · ↑↓ to choose · Enter or Tab to mention · Esc to close${more}`
  }

  return (
    <div className="mention-finder" data-testid="mention-finder">
      {items.length > 0 && (
        // In the tab order: the list scrolls, and a keyboard must be able to scroll it too (the
        // arrows in the input move the choice; Tab there picks it, so this stop is reached
        // only by Shift+Tab or from outside).
        <ul
          className="mention-finder__list"
          role="listbox"
          aria-label="Files"
          ref={list}
          tabIndex={0}
        >
          {items.map((item) => (
            <li
              key={`${item.kind}:${item.path}`}
              role="option"
              aria-selected={item === selected}
              className={`mention-finder__item${item === selected ? ' mention-finder__item--active' : ''}`}
              data-testid="mention-item"
              data-path={item.path}
              onMouseEnter={() => props.onHover(item)}
              onMouseDown={(event) => {
                // Keep focus in the input.
                event.preventDefault()
                props.onPick(item)
              }}
            >
              <span className="mention-finder__kind" aria-hidden="true">
                {item.kind === 'folder' ? <FolderIcon size={14} /> : <FileIcon size={14} />}
              </span>
              <span className="mention-finder__path">
                {highlighted(item.path, item.positions)}
                {item.kind === 'folder' ? '/' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div
        className={`mention-finder__footer${props.error ? ' mention-finder__footer--error' : ''}`}
        role={props.error ? 'alert' : 'status'}
      >
        {footer}
      </div>
    </div>
  )
}
