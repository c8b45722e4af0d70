import type { JSX, ReactNode } from 'react'

/** A choice of a select: the value it stands for and what it shows. */
export interface Option {
  value: string
  label: ReactNode
}

/** The `<option>`s of a select, one per choice, in order. */
export function Options({ of }: { of: readonly Option[] }): JSX.Element {
  return (
    <>
      {of.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </>
  )
}
