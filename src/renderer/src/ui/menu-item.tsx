import type { ComponentPropsWithoutRef, JSX } from 'react'

/** One choice of a `role="menu"` popover. */
export function MenuItem(
  props: Omit<ComponentPropsWithoutRef<'button'>, 'type' | 'role'>
): JSX.Element {
  return <button type="button" role="menuitem" {...props} />
}
