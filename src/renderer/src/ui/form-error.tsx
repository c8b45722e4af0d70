import type { JSX, ReactNode } from 'react'

/**
 * What went wrong, announced as it appears (`role="alert"`); nothing while `error` is empty.
 * It says `error` unless `children` put it in words of their own.
 */
export function FormError({
  error,
  testId,
  children
}: {
  error: string | null | undefined
  testId?: string
  children?: ReactNode
}): JSX.Element | null {
  if (!error) return null
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {children ?? error}
    </p>
  )
}
