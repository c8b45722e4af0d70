import { useEffect, useRef, type JSX, type ReactNode } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { ExternalIcon, FileIcon, FolderIcon } from '../../lib/icons'
import type { ResourceChoice } from './resource-mention'
import './mention.css'

type FoundItem = CallOutput<'files.find'>['items'][number]

/** A line of the finder: a project file or folder, an MCP server to go into, or its resource. */
export type MentionEntry =
  FoundItem | { kind: 'server'; server: string } | { kind: 'resource'; choice: ResourceChoice }

interface Props {
  items: MentionEntry[]
  selected: MentionEntry | undefined
  loading: boolean
  total: number
  complete: boolean
  error: string | null
  /** The server whose resources are listed (`@server:`); null while files are. */
  server: string | null
  onPick: (item: MentionEntry) => void
  onHover: (item: MentionEntry) => void
}

function entryKey(item: MentionEntry): string {
  if (item.kind === 'server') return `server:${item.server}`
  if (item.kind === 'resource') return `resource:${item.choice.uri}`
  return `${item.kind}:${item.path}`
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
  if (props.server !== null) {
    footer =
      items.length === 0
        ? `No resource of ${props.server} matches · Esc to close`
        : `${items.length} resource${items.length === 1 ? '' : 's'} of ${props.server}, untrusted content · ↑↓ to choose · Enter or Tab to attach · Esc to close`
  } else if (props.error) footer = `Could not list the project's files: ${props.error}`
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
          aria-label={props.server === null ? 'Files' : `Resources of ${props.server}`}
          ref={list}
          tabIndex={0}
        >
          {items.map((item) => (
            <li
              key={entryKey(item)}
              role="option"
              aria-selected={item === selected}
              className={`mention-finder__item${item === selected ? ' mention-finder__item--active' : ''}`}
              data-testid="mention-item"
              data-kind={item.kind}
              data-path={'path' in item ? item.path : undefined}
              data-uri={item.kind === 'resource' ? item.choice.uri : undefined}
              onMouseEnter={() => props.onHover(item)}
              onMouseDown={(event) => {
                // Keep focus in the input.
                event.preventDefault()
                props.onPick(item)
              }}
            >
              <EntryLine item={item} />
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

function EntryLine({ item }: { item: MentionEntry }): JSX.Element {
  if (item.kind === 'server' || item.kind === 'resource') {
    const name = item.kind === 'server' ? `${item.server}:` : item.choice.name
    const detail = item.kind === 'server' ? 'MCP resources' : item.choice.uri
    return (
      <>
        <span className="mention-finder__kind" aria-hidden="true">
          <ExternalIcon size={14} />
        </span>
        <span className="mention-finder__path">{name}</span>
        <span className="mention-finder__detail">{detail}</span>
      </>
    )
  }
  return (
    <>
      <span className="mention-finder__kind" aria-hidden="true">
        {item.kind === 'folder' ? <FolderIcon size={14} /> : <FileIcon size={14} />}
      </span>
      <span className="mention-finder__path">
        {highlighted(item.path, item.positions)}
        {item.kind === 'folder' ? '/' : ''}
      </span>
    </>
  )
}
