// @vitest-environment happy-dom
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Field, type FieldProps } from './field'

/** Puts the markup in the page, to read it as a browser (and a screen reader) would. */
function page(node: ReactNode): HTMLElement {
  document.body.innerHTML = renderToStaticMarkup(node)
  return document.body
}

function byId(root: HTMLElement, id: string): HTMLElement | null {
  return root.ownerDocument.getElementById(id)
}

function described(control: Element): string[] {
  const root = control.ownerDocument.body
  return (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => byId(root, id)?.textContent ?? `(no element #${id})`)
}

function Url(props: Omit<FieldProps, 'label' | 'children'>): ReactNode {
  return (
    <Field label="Base URL" {...props}>
      {(control) => <input {...control} className="input" data-testid="url" />}
    </Field>
  )
}

describe('Field', () => {
  it('names its control by its label', () => {
    const root = page(<Url />)
    const input = root.querySelector('[data-testid="url"]')!
    const label = root.querySelector('label')!
    expect(input.id).not.toBe('')
    expect(label.htmlFor).toBe(input.id)
    expect(label.textContent).toBe('Base URL')
    expect(label.className).toBe('field__label')
    expect(root.querySelector('.field')?.contains(input)).toBe(true)
  })

  it('says nothing more when there is no hint and no problem', () => {
    const input = page(<Url />).querySelector('[data-testid="url"]')!
    expect(input.hasAttribute('aria-describedby')).toBe(false)
    expect(input.hasAttribute('aria-invalid')).toBe(false)
    expect(document.querySelector('[role="alert"]')).toBeNull()
  })

  it('ties the hint to the control', () => {
    const input = page(<Url hint="Any server that speaks the OpenAI API." />).querySelector(
      '[data-testid="url"]'
    )!
    expect(described(input)).toEqual(['Any server that speaks the OpenAI API.'])
    expect(document.querySelector('.field__hint')?.textContent).toBe(
      'Any server that speaks the OpenAI API.'
    )
  })

  it('marks the control invalid, ties the problem to it and announces it', () => {
    const root = page(
      <Url
        hint="An http or https address."
        error="It has no scheme."
        errorTestId="issue-base_url"
      />
    )
    const input = root.querySelector('[data-testid="url"]')!
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(described(input)).toEqual(['An http or https address.', 'It has no scheme.'])
    const error = root.querySelector('[data-testid="issue-base_url"]')!
    expect(error.getAttribute('role')).toBe('alert')
    expect(error.className).toBe('field-error')
  })

  it('keeps the ids of two fields apart', () => {
    const root = page(
      <>
        <Url hint="first" error="first problem" />
        <Url hint="second" error="second problem" />
      </>
    )
    const [first, second] = Array.from(root.querySelectorAll('[data-testid="url"]'))
    expect(first!.id).not.toBe(second!.id)
    expect(described(first!)).toEqual(['first', 'first problem'])
    expect(described(second!)).toEqual(['second', 'second problem'])
  })

  it('marks required and optional after the label, and adds the class it is given', () => {
    const required = page(<Url required className="field--wide" />)
    expect(required.querySelector('label')?.textContent).toBe('Base URL required')
    expect(required.querySelector('.field__required')?.textContent).toBe('required')
    expect(required.querySelector('.field')?.className).toBe('field field--wide')
    const format = page(<Url optional="one per line" />)
    expect(format.querySelector('.field__optional')?.textContent).toBe('one per line')
    expect(page(<Url optional />).querySelector('.field__optional')?.textContent).toBe('optional')
  })

  it('puts the hint above the control when asked, and what comes below last', () => {
    const order = (root: HTMLElement): string[] =>
      Array.from(root.querySelector('.field')!.children).map(
        (child) => child.getAttribute('data-testid') ?? child.className
      )
    expect(order(page(<Url hint="h" error="e" below={<p className="after" />} />))).toEqual([
      'field__label',
      'url',
      'field__hint',
      'field-error',
      'after'
    ])
    expect(order(page(<Url hint="h" hintAbove />))).toEqual(['field__label', 'field__hint', 'url'])
  })
})
