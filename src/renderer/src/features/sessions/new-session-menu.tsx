import { useState, type JSX } from 'react'
import { createSession } from './sessions-store'
import { MenuItem } from '../../ui/menu-item'

/** The New session button's other choices: a session that cannot touch the folder. */
export function NewSessionMenu({ disabled }: { disabled: boolean }): JSX.Element {
  const [open, setOpen] = useState(false)
  return (
    <div className="new-session-menu">
      <button
        type="button"
        className="sidebar__new sidebar__new--more"
        data-testid="new-session-menu"
        aria-label="More ways to start a session"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen((was) => !was)}
      >
        ▾
      </button>
      {open && (
        <div className="new-session-menu__list" role="menu">
          <MenuItem
            className="new-session-menu__item"
            data-testid="new-session-no-fs"
            onClick={() => {
              setOpen(false)
              void createSession('no-fs')
            }}
          >
            <span>New session without files</span>
            <span className="new-session-menu__hint">No file, shell or delegation tools</span>
          </MenuItem>
        </div>
      )}
    </div>
  )
}
