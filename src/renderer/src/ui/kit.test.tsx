// @vitest-environment happy-dom
import { act, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clearPage, show } from '../../../../testing/dom/live-dom'
import { Button } from './button'
import { Check } from './check'
import { FormError } from './form-error'
import { IconButton } from './icon-button'
import { KeyEntry } from './key-entry'
import { MenuItem } from './menu-item'
import { ModalFooter, ModalHeader } from './modal-parts'
import { Options } from './options'
import { SettingsSection } from './settings-section'
import { TextField } from './text-field'
import { useAttempt, type Attempt } from './use-attempt'

/** The markup a node renders, as the e2e tests and the screenshots see it. */
const html = (node: ReactNode): string => renderToStaticMarkup(node)

afterEach(clearPage)

describe('Button', () => {
  it('is a plain button with the window’s classes, size before tone', () => {
    expect(html(<Button>Cancel</Button>)).toBe(
      '<button type="button" class="button">Cancel</button>'
    )
    expect(html(<Button small tone="danger-outline" data-testid="deny" disabled />)).toBe(
      '<button type="button" class="button button--small button--danger-outline" data-testid="deny" disabled=""></button>'
    )
    expect(html(<Button tone="ghost" className="settings__skip" />)).toBe(
      '<button type="button" class="button button--ghost settings__skip"></button>'
    )
  })

  it('submits only when told to', () => {
    expect(html(<Button type="submit" tone="primary" />)).toBe(
      '<button type="submit" class="button button--primary"></button>'
    )
  })
})

describe('IconButton and MenuItem', () => {
  it('names an icon button by its label', () => {
    expect(html(<IconButton className="find-bar__button" label="Close find" icon="×" />)).toBe(
      '<button type="button" aria-label="Close find" class="find-bar__button">×</button>'
    )
  })

  it('makes a menu item a plain button', () => {
    expect(html(<MenuItem data-testid="export-md">Markdown</MenuItem>)).toBe(
      '<button type="button" role="menuitem" data-testid="export-md">Markdown</button>'
    )
  })
})

describe('Check', () => {
  it('puts a checkbox inside its label and tells whether it is now checked', () => {
    const onChange = vi.fn()
    show(
      <Check className="check" testId="mcp-lazy" checked={false} onChange={onChange}>
        Lazy
      </Check>
    )
    const box = document.querySelector<HTMLInputElement>('[data-testid="mcp-lazy"]')!
    expect(box.type).toBe('checkbox')
    expect(box.parentElement?.tagName).toBe('LABEL')
    expect(box.parentElement?.className).toBe('check')
    expect(box.parentElement?.textContent).toBe('Lazy')
    act(() => box.click())
    expect(onChange).toHaveBeenCalledWith(true)
  })

  it('is a radio button of the named group with `radio`', () => {
    const markup = html(
      <Check radio="mcp-kind" testId="mcp-kind-url" checked onChange={() => {}}>
        Remote
      </Check>
    )
    expect(markup).toContain('type="radio"')
    expect(markup).toContain('name="mcp-kind"')
  })
})

describe('FormError', () => {
  it('says nothing without an error, and announces one', () => {
    expect(html(<FormError error={null} />)).toBe('')
    expect(html(<FormError error="" />)).toBe('')
    expect(html(<FormError error="Disk full" testId="restore-error" />)).toBe(
      '<p class="field-error" role="alert" data-testid="restore-error">Disk full</p>'
    )
    expect(html(<FormError error="Disk full">Not read: Disk full</FormError>)).toBe(
      '<p class="field-error" role="alert">Not read: Disk full</p>'
    )
  })
})

describe('ModalHeader and ModalFooter', () => {
  it('titles the modal with the id its dialog is named by', () => {
    const markup = html(
      <ModalHeader icon="!" titleId="restore-title" title="Rewind" meta={<div>here</div>} />
    )
    expect(markup).toBe(
      '<header class="approval__header"><span class="approval__icon">!</span>' +
        '<div class="approval__heading"><h2 id="restore-title" class="approval__title">Rewind</h2>' +
        '<div>here</div></div></header>'
    )
  })

  it('puts the lead, then the hint, then the buttons', () => {
    const markup = html(
      <ModalFooter lead={<i>lead</i>} hint="Enter allows" hintTitle="Keys">
        <b>Allow</b>
      </ModalFooter>
    )
    expect(markup).toBe(
      '<footer class="approval__footer"><i>lead</i>' +
        '<span class="approval__hint" title="Keys">Enter allows</span><b>Allow</b></footer>'
    )
  })
})

describe('SettingsSection', () => {
  it('is named by its heading, with no head row when it has no intro or aside', () => {
    const markup = html(
      <SettingsSection name="models" title="Default model">
        <p>body</p>
      </SettingsSection>
    )
    expect(markup).toBe(
      '<section class="settings-section" aria-labelledby="models-heading">' +
        '<h2 id="models-heading" class="settings-section__title">Default model</h2><p>body</p></section>'
    )
  })

  it('stands the title over its intro in a head row, with the aside beside them', () => {
    const markup = html(
      <SettingsSection name="mcp" title="MCP" testId="mcp-section" intro="Servers." aside={<b />}>
        <p>body</p>
      </SettingsSection>
    )
    expect(markup).toBe(
      '<section class="settings-section" aria-labelledby="mcp-heading" data-testid="mcp-section">' +
        '<div class="settings-section__head"><div>' +
        '<h2 id="mcp-heading" class="settings-section__title">MCP</h2>' +
        '<p class="settings-section__hint">Servers.</p></div><b></b></div><p>body</p></section>'
    )
  })
})

describe('Options', () => {
  it('renders one option per choice, in order', () => {
    const of = [
      { value: 'allow', label: 'Allow' },
      { value: 'forbid', label: 'Forbid' }
    ]
    expect(html(<Options of={of} />)).toBe(
      '<option value="allow">Allow</option><option value="forbid">Forbid</option>'
    )
  })
})

describe('TextField', () => {
  it('is a Field whose input reports what was typed', () => {
    const onChange = vi.fn()
    show(
      <TextField
        label="Id"
        error="Taken"
        mono
        testId="provider-id"
        value="work"
        onChange={onChange}
        spellCheck={false}
      />
    )
    const input = document.querySelector<HTMLInputElement>('[data-testid="provider-id"]')!
    expect(input.className).toBe('input input--mono')
    expect(input.getAttribute('spellcheck')).toBe('false')
    expect(input.hasAttribute('autocomplete')).toBe(false)
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(document.querySelector('label')?.htmlFor).toBe(input.id)
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!
    act(() => {
      setValue.call(input, 'home')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    expect(onChange).toHaveBeenCalledWith('home')
  })
})

describe('KeyEntry', () => {
  it('waits for a key, stores it on Store, and says when it is storing', () => {
    const onStore = vi.fn()
    const entry = (value: string, storing?: boolean): ReactNode => (
      <KeyEntry
        control={{ id: 'key' }}
        value={value}
        onChange={() => {}}
        placeholder="Paste the key"
        onStore={onStore}
        storing={storing}
        storeTestId="store"
      />
    )
    show(entry('  '))
    const store = (): HTMLButtonElement =>
      document.querySelector<HTMLButtonElement>('[data-testid="store"]')!
    expect(store().disabled).toBe(true)
    expect(document.querySelector('input')?.type).toBe('password')
    show(entry('sk-1'))
    expect(store().disabled).toBe(false)
    act(() => store().click())
    expect(onStore).toHaveBeenCalledTimes(1)
    show(entry('sk-1', true))
    expect(store().disabled).toBe(true)
    expect(store().textContent).toBe('Storing…')
  })
})

describe('useAttempt', () => {
  it('is busy while its action runs, then keeps what went wrong until one works', async () => {
    let attempt: Attempt | null = null
    function Probe(): null {
      attempt = useAttempt()
      return null
    }
    show(<Probe />)
    let finish: (failed: string | null) => void = () => {}
    act(() => attempt!.run(() => new Promise((resolve) => (finish = resolve))))
    expect(attempt!.busy).toBe(true)
    await act(async () => finish('could not send'))
    expect(attempt!).toMatchObject({ busy: false, error: 'could not send' })
    await act(async () => attempt!.run(async () => null))
    expect(attempt!).toMatchObject({ busy: false, error: null })
  })
})
