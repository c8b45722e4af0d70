import type { ComponentPropsWithRef, JSX } from 'react'

/** The looks a `.button` comes in besides the plain one. */
export type ButtonTone = 'primary' | 'ghost' | 'danger-outline' | 'ghost-danger'

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  tone?: ButtonTone
  /** `button--small`: in a row of a list, beside a field. */
  small?: boolean
}

/**
 * The window's push button (`.button`, with its tone and size). A plain button unless `type`
 * says otherwise, so pressing it inside a form never submits the form by accident.
 */
export function Button(props: ButtonProps): JSX.Element {
  const { tone, small, className, type = 'button', ...rest } = props
  const classes = ['button', small && 'button--small', tone && `button--${tone}`, className]
  return <button type={type} className={classes.filter(Boolean).join(' ')} {...rest} />
}
