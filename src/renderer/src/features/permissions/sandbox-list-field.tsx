import type { JSX, ReactNode } from 'react'
import { Field } from '../../ui/field'

/** A list of the settings as a text box, one item a line, written to the draft on leaving it. */
export function SandboxListField({
  label,
  hint,
  testId,
  value,
  onChange,
  children
}: {
  label: string
  hint: ReactNode
  testId: string
  /** The list as lines. */
  value: string
  onChange: (text: string) => void
  /** Shown under the hint: what the list does now, or a warning about it. */
  children?: ReactNode
}): JSX.Element {
  return (
    <Field label={label} hint={hint} below={children}>
      {(control) => (
        <textarea
          // Remade when the file changes under the screen, so the box shows what it says.
          key={value}
          {...control}
          className="textarea sandbox-settings__list"
          rows={Math.min(8, Math.max(2, value.split('\n').length + 1))}
          spellCheck={false}
          data-testid={testId}
          defaultValue={value}
          onBlur={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  )
}
