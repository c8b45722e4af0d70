import type { ComponentPropsWithoutRef, JSX } from 'react'
import type { ExtraProps } from 'react-markdown'
import { codeBlockInfo, type HastNode } from './code-block-info'
import { CopyButton } from './copy-button'

type Props = ComponentPropsWithoutRef<'pre'> & ExtraProps

/** A fenced code block in a reply: its language above the code, and a button copying the code. */
export function CodeBlock({ node, children, ...rest }: Props): JSX.Element {
  // The tree is read on click too, so the copied text is exactly the code being shown.
  const info = codeBlockInfo(node as HastNode | undefined)
  return (
    <div className="code-block" data-testid="code-block" data-language={info.language}>
      <div className="code-block__header">
        <span className="code-block__language" data-testid="code-language">
          {info.language}
        </span>
        <CopyButton
          text={() => info.text}
          label={`Copy ${info.language} code`}
          testId="copy-code"
          showText
        />
      </div>
      <pre {...rest}>{children}</pre>
    </div>
  )
}
