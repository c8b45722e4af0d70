import type { JSX } from 'react'
import { Button } from './button'
import type { FieldControl } from './field'

/**
 * A key typed in to be stored (in the OS keychain or a private file), never shown: a password
 * box and its Store button, which waits for some text. Goes inside a Field, whose `control` it
 * takes.
 */
export function KeyEntry(props: {
  control: FieldControl
  value: string
  onChange: (value: string) => void
  placeholder: string
  onStore: () => void
  /** While the key is being stored: Store says so and waits. */
  storing?: boolean
  testId?: string
  storeTestId?: string
}): JSX.Element {
  return (
    <div className="field__row">
      <input
        {...props.control}
        className="input input--mono"
        type="password"
        data-testid={props.testId}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        onChange={(event) => props.onChange(event.target.value)}
      />
      <Button
        data-testid={props.storeTestId}
        disabled={!props.value.trim() || props.storing}
        onClick={props.onStore}
      >
        {props.storing ? 'Storing…' : 'Store'}
      </Button>
    </div>
  )
}
