import type { JSX } from 'react'
import { ShieldIcon } from '../../lib/icons'
import { changeTrust, useTrust } from './trust-store'
import './trust.css'

/** The folder header's word on trust; a click asks the question again, to change the answer. */
export function FolderTrustChip(): JSX.Element | null {
  const trust = useTrust((s) => s.state.trust)
  if (trust === null || trust === 'unknown') return null
  const untrusted = trust === 'untrusted'
  return (
    <button
      type="button"
      className={`folder-trust-chip${untrusted ? ' folder-trust-chip--untrusted' : ''}`}
      data-testid="folder-trust-chip"
      data-trust={trust}
      title={
        untrusted
          ? 'You do not trust the authors of this folder: what is read from it counts as untrusted input. Click to change.'
          : 'You trust the authors of this folder. Click to change.'
      }
      onClick={changeTrust}
    >
      <ShieldIcon size={11} />
      {untrusted ? 'Untrusted folder' : 'Trusted folder'}
    </button>
  )
}
