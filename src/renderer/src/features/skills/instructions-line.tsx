import type { JSX } from 'react'
import { useSkills } from './skills-store'
import './skills.css'

/** Which instruction files the model gets in this folder, as a small line in the chat header. */
export function InstructionsLine(): JSX.Element | null {
  const files = useSkills((s) => s.state.instructions)
  if (files.length === 0) return null
  return (
    <span
      className="instructions-line"
      data-testid="instructions-line"
      title={`Read into the system prompt before each turn:\n${files.map((f) => f.path).join('\n')}`}
    >
      Instructions: {files.map((f) => f.label).join(', ')}
    </span>
  )
}
