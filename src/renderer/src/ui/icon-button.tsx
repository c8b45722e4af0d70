import type { ComponentPropsWithRef, JSX, ReactNode } from 'react'

export type IconButtonProps = Omit<
  ComponentPropsWithRef<'button'>,
  'type' | 'aria-label' | 'children'
> & {
  /** Its name for assistive technology, which has no words on the button to read. */
  label: string
  icon: ReactNode
}

/** A button that shows only an icon; its class is the feature's own. */
export function IconButton({ label, icon, ...rest }: IconButtonProps): JSX.Element {
  return (
    <button type="button" aria-label={label} {...rest}>
      {icon}
    </button>
  )
}
