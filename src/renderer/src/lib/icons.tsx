import type { JSX } from 'react'

interface IconProps {
  size?: number
  className?: string
}

function svg(paths: JSX.Element, { size = 16, className }: IconProps): JSX.Element {
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

export const FolderIcon = (p: IconProps): JSX.Element =>
  svg(
    <path d="M1.75 4.25c0-.69.56-1.25 1.25-1.25h3l1.5 1.5h5.5c.69 0 1.25.56 1.25 1.25v6c0 .69-.56 1.25-1.25 1.25H3c-.69 0-1.25-.56-1.25-1.25v-7.5Z" />,
    p
  )

export const PlusIcon = (p: IconProps): JSX.Element => svg(<path d="M8 3v10M3 8h10" />, p)

export const GearIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <circle cx="8" cy="8" r="2.25" />
      <path d="M8 1.75v1.5M8 12.75v1.5M14.25 8h-1.5M3.25 8h-1.5M12.42 3.58l-1.06 1.06M4.64 11.36l-1.06 1.06M12.42 12.42l-1.06-1.06M4.64 4.64 3.58 3.58" />
    </>,
    p
  )

export const ChevronIcon = (p: IconProps): JSX.Element => svg(<path d="m6 4 4 4-4 4" />, p)

export const ArrowLeftIcon = (p: IconProps): JSX.Element => svg(<path d="M13 8H3M7 4 3 8l4 4" />, p)

export const ArrowUpIcon = (p: IconProps): JSX.Element => svg(<path d="M8 13V3M4 7l4-4 4 4" />, p)

export const ArrowDownIcon = (p: IconProps): JSX.Element => svg(<path d="M8 3v10M4 9l4 4 4-4" />, p)

export const StopIcon = (p: IconProps): JSX.Element =>
  svg(<rect x="4" y="4" width="8" height="8" rx="1.5" fill="currentColor" stroke="none" />, p)

export const ShieldIcon = (p: IconProps): JSX.Element =>
  svg(
    <path d="M8 1.75 2.75 3.5v4c0 3.1 2.2 5.6 5.25 6.75 3.05-1.15 5.25-3.65 5.25-6.75v-4L8 1.75Z" />,
    p
  )

export const AlertIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <path d="M8 2 1.5 13.5h13L8 2Z" />
      <path d="M8 6.5v3M8 11.5v.01" />
    </>,
    p
  )

export const ChatIcon = (p: IconProps): JSX.Element =>
  svg(
    <path d="M2.5 3.75c0-.69.56-1.25 1.25-1.25h8.5c.69 0 1.25.56 1.25 1.25v6c0 .69-.56 1.25-1.25 1.25H6l-3.5 2.5V3.75Z" />,
    p
  )

export const ChecklistIcon = (p: IconProps): JSX.Element =>
  svg(<path d="M2 4l1.25 1.25L5.5 3M2 10l1.25 1.25L5.5 9M8 4.25h6M8 10.25h6" />, p)

export const CheckIcon = (p: IconProps): JSX.Element => svg(<path d="m3.5 8.5 3 3 6-7" />, p)

export const CopyIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <rect x="5.25" y="5.25" width="8" height="8" rx="1.5" />
      <path d="M10.75 5.25V3.5c0-.69-.56-1.25-1.25-1.25h-6c-.69 0-1.25.56-1.25 1.25v6c0 .69.56 1.25 1.25 1.25h1.75" />
    </>,
    p
  )

export const CloseIcon = (p: IconProps): JSX.Element => svg(<path d="m4 4 8 8M12 4l-8 8" />, p)

export const FileIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <path d="M4 1.75h5l3 3v9.5H4V1.75Z" />
      <path d="M9 1.75v3h3" />
    </>,
    p
  )

export const ScissorsIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <circle cx="4" cy="4.5" r="2" />
      <circle cx="4" cy="11.5" r="2" />
      <path d="M5.6 5.7 14 12M5.6 10.3 14 4" />
    </>,
    p
  )

/** A terminal window with a prompt: the job monitor. */
export const TerminalIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.75" />
      <path d="m4.5 6.5 2 1.75-2 1.75M8.5 10.25h3" />
    </>,
    p
  )

/** An arrow leaving a box: opens in the browser. */
export const ExternalIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <path d="M9.5 2.5h4v4M13.5 2.5 8 8" />
      <path d="M12 9.5v3.25c0 .41-.34.75-.75.75h-8a.75.75 0 0 1-.75-.75v-8c0-.41.34-.75.75-.75H6.5" />
    </>,
    p
  )

/** The app's mark: a small rounded square with a spark. */
export const BranchIcon = (p: IconProps): JSX.Element =>
  svg(
    <>
      <circle cx="4.5" cy="3.5" r="1.5" />
      <circle cx="4.5" cy="12.5" r="1.5" />
      <circle cx="11.5" cy="5.5" r="1.5" />
      <path d="M4.5 5v6M11.5 7c0 2.5-2 3-7 4" />
    </>,
    p
  )

export const PencilIcon = (p: IconProps): JSX.Element =>
  svg(<path d="M10.5 2.5 13.5 5.5 5.5 13.5H2.5V10.5Z" />, p)

export const TrashIcon = (p: IconProps): JSX.Element =>
  svg(<path d="M2.5 4.5h11M6.5 4.5v-2h3v2M4 4.5l.75 9h6.5l.75-9" />, p)

/** Rewind and undo: an arrow turning back. */
export const RewindIcon = (p: IconProps): JSX.Element =>
  svg(<path d="M3 3v4h4M3.5 7A5 5 0 1 1 5 11.5" />, p)

export const RefreshIcon = (p: IconProps): JSX.Element =>
  svg(<path d="M13 8a5 5 0 1 1-1.5-3.5M13 3v2.5h-2.5" />, p)

export const PaperclipIcon = (p: IconProps): JSX.Element =>
  svg(
    <path d="M13.5 7.5 8 13a3.5 3.5 0 0 1-5-5l5.75-5.75a2.25 2.25 0 0 1 3.2 3.2L6.2 11.2a1 1 0 0 1-1.4-1.4L10 4.6" />,
    p
  )

export function LogoMark({ size = 28 }: { size?: number }): JSX.Element {
  return (
    <svg width={size} height={size} viewBox="0 0 28 28" aria-hidden="true">
      <rect width="28" height="28" rx="7" fill="var(--accent)" />
      <path
        d="M8 19V9.5l6 6 6-6V19"
        fill="none"
        stroke="#fff"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}
