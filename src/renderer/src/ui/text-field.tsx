import type { HTMLAttributes, JSX } from 'react'
import { Field, type FieldProps } from './field'

export type TextFieldProps = Omit<FieldProps, 'children'> & {
  testId: string
  value: string
  onChange: (value: string) => void
  /** `input--mono`: for names, paths, addresses and commands, typed as code is. */
  mono?: boolean
  type?: 'text' | 'password'
  placeholder?: string
  /** The id of a `<datalist>` of suggestions. */
  list?: string
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode']
  spellCheck?: boolean
  autoComplete?: string
}

/** A Field whose control is a one-line text box. */
export function TextField(props: TextFieldProps): JSX.Element {
  const { testId, value, onChange, mono, type, placeholder, list, inputMode, ...field } = props
  const { spellCheck, autoComplete, ...rest } = field
  return (
    <Field {...rest}>
      {(control) => (
        <input
          {...control}
          className={mono ? 'input input--mono' : 'input'}
          type={type}
          data-testid={testId}
          list={list}
          inputMode={inputMode}
          value={value}
          placeholder={placeholder}
          spellCheck={spellCheck}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  )
}
