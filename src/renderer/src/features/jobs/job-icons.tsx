import type { JSX } from 'react'

interface IconProps {
  size?: number
  className?: string
}

function icon(paths: JSX.Element, { size = 16, className }: IconProps): JSX.Element {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      {paths}
    </svg>
  )
}

/** A terminal window with a prompt: the job monitor. */
export const TerminalIcon = (p: IconProps): JSX.Element =>
  icon(
    <>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.75" />
      <path d="m4.5 6.5 2 1.75-2 1.75M8.5 10.25h3" />
    </>,
    p
  )

/** An arrow leaving a box: opens in the browser. */
export const ExternalIcon = (p: IconProps): JSX.Element =>
  icon(
    <>
      <path d="M9.5 2.5h4v4M13.5 2.5 8 8" />
      <path d="M12 9.5v3.25c0 .41-.34.75-.75.75h-8a.75.75 0 0 1-.75-.75v-8c0-.41.34-.75.75-.75H6.5" />
    </>,
    p
  )
