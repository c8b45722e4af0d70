import { useRef, type JSX } from 'react'
import { CloseIcon } from '../../lib/icons'
import { Dialog } from '../../ui/dialog'
import { closeShortcuts, useKeys } from './keys-store'
import { currentPlatform } from './shortcut-match'
import { shortcutLines } from './shortcut-list'
import './shortcuts.css'

/**
 * The list of keyboard shortcuts (from the palette, or `/help`, which adds the slash commands),
 * written with this platform's modifier.
 */
export function ShortcutsDialog(): JSX.Element | null {
  const open = useKeys((s) => s.shortcutsOpen)
  return open ? <ShortcutsList /> : null
}

/** Back where the person was; from the palette (gone by then), to the message box. */
function composerBox(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-testid="composer-input"]')
}

function ShortcutsList(): JSX.Element {
  const close = useRef<HTMLButtonElement>(null)
  const commands = useKeys((s) => s.commands)
  const lines = shortcutLines(currentPlatform())

  return (
    <Dialog
      className="modal-dialog"
      labelledBy="shortcuts-title"
      data-keys-dialog=""
      data-testid="shortcuts-dialog"
      onClose={closeShortcuts}
      closeOnBackdrop
      initialFocus={close}
      returnFocus={composerBox}
    >
      <div className="modal shortcuts">
        <header className="shortcuts__header">
          <h2 id="shortcuts-title" className="shortcuts__title">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            className="find-bar__button"
            aria-label="Close"
            data-testid="shortcuts-close"
            ref={close}
            onClick={closeShortcuts}
          >
            <CloseIcon size={14} />
          </button>
        </header>
        <div className="shortcuts__body">
          <table className="shortcuts__table">
            <tbody>
              {lines.map((line) => (
                <tr key={line.keys} data-testid="shortcut-line">
                  <td>
                    <kbd className="palette__kbd">{line.keys}</kbd>
                  </td>
                  <td>{line.action}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {commands && commands.length > 0 && (
            <section data-testid="command-help">
              <h3 className="shortcuts__subtitle">Commands</h3>
              <table className="shortcuts__table">
                <tbody>
                  {commands.map((line) => (
                    <tr key={`${line.tag}:${line.command}`}>
                      <td className="mono">{line.command}</td>
                      <td>
                        {line.description} <span className="shortcuts__tag">{line.tag}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="shortcuts__hint">
                Type / to pick a command; text after a command fills its $ARGUMENTS.
              </p>
            </section>
          )}
        </div>
      </div>
    </Dialog>
  )
}
