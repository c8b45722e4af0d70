import { useEffect, type JSX } from 'react'
import { useWorkspace } from '../sessions'
import type { SkillOrigin } from '../../../../shared/skills'
import { UntrustedBadge } from '../memory'
import { SkillDrafts } from './skill-drafts'
import { loadCommands, loadDrafts, loadSkills, useSkills } from './skills-store'
import { SettingsSection } from '../../ui/settings-section'
import './skills.css'

/** The settings screen's skills: each folder found, where it came from, and whether it loaded. */
export function SkillsSection(): JSX.Element {
  const workspace = useWorkspace()
  const state = useSkills((s) => s.state)
  const ready = workspace !== null && state.workspace === workspace

  useEffect(() => {
    if (!workspace) return
    void loadSkills(workspace)
    void loadCommands(workspace)
    void loadDrafts(workspace)
  }, [workspace])

  const skills = ready ? (state.skills ?? []) : []
  const problems = ready ? state.problems : []
  return (
    <SettingsSection
      name="skills"
      title="Skills"
      testId="skills-section"
      intro={
        <>
          Folders with a SKILL.md in <span className="mono">.mecatl/skills/</span> or{' '}
          <span className="mono">.claude/skills/</span> of the project, in your own skills folder,
          and the learned skills you activated from drafts (in{' '}
          <span className="mono">.mecatl/learned-skills/</span>). The Skill tool names each one to
          the model, which loads one when a task calls for it; each is also a slash command.
          {ready &&
            !state.skillsEnabled &&
            ' The skill tools are turned off (--no-skills or skills: {enabled: false}).'}
        </>
      }
    >
      {!workspace ? (
        <p className="settings-section__hint">Open a project folder to see its skills.</p>
      ) : skills.length === 0 ? (
        <p className="settings-section__hint" data-testid="skills-empty">
          No skills found for this project.
        </p>
      ) : (
        <ul className="skills-list">
          {skills.map((skill) => (
            <li
              key={skill.path}
              className={`skills-list__item${skill.error ? ' skills-list__item--error' : ''}`}
              data-testid="skill-row"
            >
              <div className="skills-list__head">
                <span className="skills-list__name mono">{skill.name}</span>
                <span className="skills-list__origin">{originLabel[skill.origin]}</span>
                <UntrustedBadge provenance={skill.provenance} />
                <span className={skill.error ? 'skills-list__state--error' : 'skills-list__state'}>
                  {skill.error ? 'skipped' : 'loaded'}
                </span>
              </div>
              <div className="skills-list__text">{skill.error ?? skill.description}</div>
              <div className="skills-list__path mono" title={skill.path}>
                {skill.path}
              </div>
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className="skills-problems" data-testid="command-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {ready && workspace && (
        <SkillDrafts workspace={workspace} drafts={state.drafts ?? []} note={state.draftNote} />
      )}
    </SettingsSection>
  )
}

const originLabel: Record<SkillOrigin, string> = {
  operator: 'operator',
  project: 'project',
  user: 'yours',
  learned: 'learned'
}
