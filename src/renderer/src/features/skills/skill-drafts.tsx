import { useState, type JSX } from 'react'
import type { SkillDraftView } from '../../../../shared/skills'
import { UntrustedBadge, untrustedMark } from '../memory'
import type { DraftNote } from './skills-reducer'
import { actOnDraft } from './skills-store'

/**
 * The drafts SkillDraft saved, each shown whole so the person reads what they activate. Activate
 * makes one a learned skill (its name, description and instructions only); Delete removes it.
 */
export function SkillDrafts(props: {
  workspace: string
  drafts: SkillDraftView[]
  note: DraftNote | null
}): JSX.Element {
  const { workspace, drafts, note } = props
  const [busy, setBusy] = useState<string | null>(null)
  const act = async (draft: SkillDraftView, what: 'activate' | 'delete'): Promise<void> => {
    setBusy(draft.name)
    try {
      await actOnDraft(workspace, draft, what)
    } finally {
      setBusy(null)
    }
  }
  const listNote = note && (note.name === null || !drafts.some((d) => d.name === note.name))
  return (
    <div className="skill-drafts" data-testid="skill-drafts">
      <h3 className="skill-drafts__title">Drafts</h3>
      <p className="settings-section__hint">
        What the model saved with SkillDraft, in <span className="mono">.mecatl/skill-drafts/</span>
        . A draft is not loaded until you activate it; it then becomes a learned skill with only its
        name, description and instructions, and loses to any other skill of the same name.
      </p>
      {listNote && <DraftNoteLine note={note} />}
      {drafts.length === 0 ? (
        <p className="settings-section__hint" data-testid="skill-drafts-empty">
          No drafts.
        </p>
      ) : (
        <ul className="skills-list">
          {drafts.map((draft) => (
            <li key={draft.name} className="skills-list__item" data-testid="skill-draft">
              <div className="skills-list__head">
                <span className="skills-list__name mono">{draft.name}</span>
                <span className="skills-list__origin">draft</span>
                <UntrustedBadge provenance={draft.provenance} />
                <span className="skill-drafts__actions">
                  <button
                    type="button"
                    className="button button--small button--primary"
                    disabled={draft.problem !== null || busy !== null}
                    onClick={() => void act(draft, 'activate')}
                    data-testid="skill-draft-activate"
                  >
                    {draft.replaces ? 'Activate (replaces the learned skill)' : 'Activate'}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--ghost-danger"
                    disabled={busy !== null}
                    onClick={() => void act(draft, 'delete')}
                    data-testid="skill-draft-delete"
                  >
                    Delete
                  </button>
                </span>
              </div>
              {draft.description && <div className="skills-list__text">{draft.description}</div>}
              <UntrustedLine draft={draft} />
              {draft.problem && (
                <div className="skill-drafts__problem" data-testid="skill-draft-problem">
                  Cannot be activated: {draft.problem}.
                </div>
              )}
              {draft.dropped.length > 0 && (
                <div className="skill-drafts__dropped" data-testid="skill-draft-dropped">
                  Activation drops these front-matter keys, so they give the skill nothing:{' '}
                  <span className="mono">{draft.dropped.join(', ')}</span>
                </div>
              )}
              {note?.name === draft.name && <DraftNoteLine note={note} />}
              <pre className="skill-drafts__text mono" data-testid="skill-draft-text">
                {draft.text}
              </pre>
              <div className="skills-list__path mono" title={draft.path}>
                {draft.path}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Where a draft written in a conversation that held untrusted input came from. */
function UntrustedLine({ draft }: { draft: SkillDraftView }): JSX.Element | null {
  const mark = untrustedMark(draft.provenance)
  if (!mark) return null
  return (
    <div className="skill-drafts__untrusted" data-testid="skill-draft-untrusted">
      {mark.title} Activating it keeps this mark.
    </div>
  )
}

function DraftNoteLine({ note }: { note: DraftNote }): JSX.Element {
  return (
    <p
      className={note.error ? 'skill-drafts__note skill-drafts__note--error' : 'skill-drafts__note'}
      role={note.error ? 'alert' : 'status'}
      data-testid="skill-draft-note"
    >
      {note.text}
    </p>
  )
}
