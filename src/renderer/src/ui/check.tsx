import type { JSX, ReactNode } from 'react'

/**
 * A checkbox inside its label, or with `radio` one button of a radio group; `onChange` is told
 * whether it is now checked.
 */
export function Check(props: {
  /** The label's class: how the feature lays out the box and its words. */
  className?: string
  /** The group's name: a radio button rather than a checkbox. */
  radio?: string
  value?: string
  testId?: string
  checked: boolean
  disabled?: boolean
  title?: string
  /** For a box whose words are not its name (an "On" beside a tool's name). */
  'aria-label'?: string
  onChange: (checked: boolean) => void
  children: ReactNode
}): JSX.Element {
  return (
    <label className={props.className} title={props.title}>
      <input
        type={props.radio === undefined ? 'checkbox' : 'radio'}
        name={props.radio}
        value={props.value}
        data-testid={props.testId}
        aria-label={props['aria-label']}
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.children}
    </label>
  )
}
