import { useId, type JSX, type ReactNode } from 'react'

/** What a field's control takes from it: the id its label names, its hint and its error. */
export interface FieldControl {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
}

export interface FieldProps {
  label: ReactNode
  /** Marked "required" after the label. */
  required?: boolean
  /** Marked "optional" after the label, or with these words instead (a word on the format). */
  optional?: true | string
  hint?: ReactNode
  /** The hint between the label and the control, where a form someone else wrote puts it. */
  hintAbove?: boolean
  /** What is wrong with the value: marks the control invalid and is read out as it appears. */
  error?: string | null
  errorTestId?: string
  /** Added to `field`: `field--wide`, or the feature's own class. */
  className?: string
  /** Under the hint and the error: what the value does now, or a warning about it. */
  below?: ReactNode
  children: (control: FieldControl) => ReactNode
}

/**
 * One setting on a form: its label, its control, a hint and the problem found with it, with the
 * ids between them wired, so a screen reader says the hint and the error with the control.
 */
export function Field(props: FieldProps): JSX.Element {
  const { label, required, optional, hint, hintAbove, error, className, below } = props
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ')
  const control: FieldControl = {
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(error ? { 'aria-invalid': true } : {})
  }
  const hintText = hint && (
    <span className="field__hint" id={hintId}>
      {hint}
    </span>
  )
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && (
          <>
            {' '}
            <span className="field__required">required</span>
          </>
        )}
        {optional && (
          <>
            {' '}
            <span className="field__optional">{optional === true ? 'optional' : optional}</span>
          </>
        )}
      </label>
      {hintAbove && hintText}
      {props.children(control)}
      {!hintAbove && hintText}
      {error && (
        <p className="field-error" id={errorId} role="alert" data-testid={props.errorTestId}>
          {error}
        </p>
      )}
      {below}
    </div>
  )
}
