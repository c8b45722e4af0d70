import { useMemo, useState, type JSX } from 'react'
import type { ContentBlock, ToolDisplay } from '../../../../shared/domain'
import { formatBytes, formatCount } from '../../lib/format'
import { FileIcon } from '../../lib/icons'
import { FOLDED_ROWS, ShowAll } from '../../ui/show-all'
import { firstMatches, groupByFile, highlightSegments } from './match-groups'

type Display<K extends ToolDisplay['kind']> = Extract<ToolDisplay, { kind: K }>

/** An image Read returned, previewed from the image block the model was sent. */
export function ImageView({
  display,
  content
}: {
  display: Display<'image'>
  content: readonly ContentBlock[]
}): JSX.Element {
  const image = content.find((block) => block.type === 'image')
  const kind = display.mediaType.replace(/^image\//, '').toUpperCase()
  return (
    <figure className="result-frame image-view" data-testid="image-view">
      {image && image.type === 'image' ? (
        <div className="image-view__stage">
          <img src={`data:${image.mediaType};base64,${image.data}`} alt={display.path} />
        </div>
      ) : (
        <p className="result-frame__empty">
          The model was sent a description: the selected model does not take images.
        </p>
      )}
      <figcaption className="result-frame__head result-frame__head--foot">
        <FileIcon size={13} />
        <span className="result-frame__path mono">{display.path}</span>
        <span className="result-frame__meta">
          {kind} · {formatBytes(display.bytes)}
        </span>
      </figcaption>
    </figure>
  )
}

/** Glob's files (and ListDir's entries): one path a line, with how many more matched. */
export function FileListView({
  paths,
  more,
  noun
}: {
  paths: readonly string[]
  more: number
  noun: string
}): JSX.Element {
  const [all, setAll] = useState(false)
  const shown = all ? paths : paths.slice(0, FOLDED_ROWS)
  return (
    <div className="result-frame" data-testid="file-list">
      <div className="result-frame__head">
        <span className="result-frame__meta">
          {formatCount(paths.length + more)} {noun}
          {more > 0 && ` (the first ${formatCount(paths.length)} listed)`}
        </span>
      </div>
      {paths.length === 0 ? (
        <p className="result-frame__empty">Nothing matched.</p>
      ) : (
        <ul className="file-list">
          {shown.map((file) => (
            <li key={file} className="file-list__item mono">
              <FileIcon size={12} />
              <span>{file}</span>
            </li>
          ))}
        </ul>
      )}
      {shown.length < paths.length && (
        <ShowAll hidden={paths.length - shown.length} noun={noun} onClick={() => setAll(true)} />
      )}
      {more > 0 && (all || shown.length === paths.length) && (
        <p className="result-frame__note">and {formatCount(more)} more not listed</p>
      )}
    </div>
  )
}

/** Grep's hits grouped by file, each line numbered with its matches highlighted. */
export function MatchesView({ display }: { display: Display<'matches'> }): JSX.Element {
  const groups = useMemo(() => groupByFile(display.matches), [display])
  const [all, setAll] = useState(false)
  const shown = all ? groups : firstMatches(groups, FOLDED_ROWS)
  const listed = display.matches.length
  return (
    <div className="result-frame" data-testid="matches-view">
      <div className="result-frame__head">
        <span className="result-frame__meta">
          {formatCount(listed)} matching {listed === 1 ? 'line' : 'lines'} in{' '}
          {formatCount(groups.length)}
          {groups.length === 1 ? ' file' : ' files'}
          {display.more > 0 && `; ${formatCount(display.more)} more not listed`}
        </span>
      </div>
      {groups.length === 0 && <p className="result-frame__empty">No matches.</p>}
      {shown.map((group) => {
        const count = groups.find((g) => g.path === group.path)?.matches.length ?? 0
        return (
          <section key={group.path} className="match-file" data-testid="match-file">
            <div className="match-file__path mono">
              <FileIcon size={12} />
              {group.path}
              <span className="match-file__count">{count}</span>
            </div>
            <table className="match-lines">
              <tbody>
                {group.matches.map((match) => (
                  <tr key={match.line}>
                    <td className="diff__num">{match.line}</td>
                    <td className="match-lines__text mono">
                      {highlightSegments(match.text, match.ranges).map((segment, i) =>
                        segment.hit ? (
                          <mark key={i} className="match-hit">
                            {segment.text}
                          </mark>
                        ) : (
                          <span key={i}>{segment.text}</span>
                        )
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )
      })}
      {!all && display.matches.length > FOLDED_ROWS && (
        <ShowAll
          hidden={display.matches.length - FOLDED_ROWS}
          noun="lines"
          onClick={() => setAll(true)}
        />
      )}
    </div>
  )
}
