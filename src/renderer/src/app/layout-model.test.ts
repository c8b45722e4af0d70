import { describe, expect, it } from 'vitest'
import {
  CHAT_MIN_WIDTH,
  SIDEBAR_WIDTH,
  jobsWidth,
  layoutFor,
  planWouldFloat,
  sidebarShown,
  toggledSidebar,
  type LayoutInput
} from './layout-model'

/** The chat's width for a layout, the way the window's columns add up. */
function chatWidth(input: LayoutInput): number {
  const layout = layoutFor(input)
  let width = input.width
  if (layout.sidebar === 'beside') width -= SIDEBAR_WIDTH
  if (input.plan === 'rail') width -= 44
  if (layout.panels === 'beside') {
    if (layout.open.includes('plan')) width -= 272
    if (layout.open.includes('jobs')) width -= jobsWidth(input.width)
  } else if (layout.panels === 'tabs') width -= layout.dockWidth
  return width
}

describe('layoutFor', () => {
  it('keeps the panels beside the chat when there is room', () => {
    const layout = layoutFor({ width: 1800, sidebar: 'auto', plan: 'open', jobs: true })
    expect(layout).toEqual({
      sidebar: 'beside',
      panels: 'beside',
      open: ['plan', 'jobs'],
      dockWidth: 0
    })
  })

  it('puts both panels in one tabbed column at 1280 with the sidebar', () => {
    const layout = layoutFor({ width: 1280, sidebar: 'auto', plan: 'open', jobs: true })
    expect(layout.sidebar).toBe('beside')
    expect(layout.panels).toBe('tabs')
    expect(layout.dockWidth).toBe(jobsWidth(1280))
  })

  it('hides the sidebar by itself below the collapse width and floats the panels at 900', () => {
    const layout = layoutFor({ width: 900, sidebar: 'auto', plan: 'open', jobs: true })
    expect(layout.sidebar).toBe('hidden')
    expect(layout.panels).toBe('overlay')
    // One panel that fits stays beside.
    expect(layoutFor({ width: 900, sidebar: 'auto', plan: 'open', jobs: false }).panels).toBe(
      'beside'
    )
  })

  it('shows an asked-for sidebar over the chat when it would squeeze it', () => {
    expect(layoutFor({ width: 900, sidebar: 'shown', plan: 'none', jobs: false }).sidebar).toBe(
      'beside'
    )
    expect(layoutFor({ width: 700, sidebar: 'shown', plan: 'none', jobs: false }).sidebar).toBe(
      'overlay'
    )
    expect(layoutFor({ width: 2000, sidebar: 'hidden', plan: 'none', jobs: false }).sidebar).toBe(
      'hidden'
    )
  })

  it('never leaves the chat narrower than its minimum, at any width from 800 to 2560', () => {
    const plans = ['none', 'rail', 'open'] as const
    const choices = ['auto', 'shown', 'hidden'] as const
    for (let width = 800; width <= 2560; width += 7) {
      for (const plan of plans) {
        for (const sidebar of choices) {
          for (const jobs of [false, true]) {
            expect(chatWidth({ width, sidebar, plan, jobs })).toBeGreaterThanOrEqual(CHAT_MIN_WIDTH)
          }
        }
      }
    }
  })
})

describe('planWouldFloat', () => {
  it('is true only where an open plan finds no room beside the chat', () => {
    const at = (width: number, jobs = false): boolean =>
      planWouldFloat({ width, sidebar: 'auto', plan: 'none', jobs })
    // Beside the chat at 900 (560 + 272 fit), floating at 760 and 640.
    expect(at(1280)).toBe(false)
    expect(at(900)).toBe(false)
    expect(at(832)).toBe(false)
    expect(at(831)).toBe(true)
    expect(at(760)).toBe(true)
    expect(at(640)).toBe(true)
    // With the job monitor open at 900 the two float together.
    expect(at(900, true)).toBe(true)
    // A sidebar the person asked for takes its room first.
    expect(planWouldFloat({ width: 1000, sidebar: 'shown', plan: 'none', jobs: false })).toBe(true)
  })
})

describe('below the sidebar and a full chat (808 px)', () => {
  it('keeps the whole window for the chat and puts an asked-for sidebar over it', () => {
    for (const width of [807, 760, 640]) {
      expect(layoutFor({ width, sidebar: 'auto', plan: 'none', jobs: false }).sidebar).toBe(
        'hidden'
      )
      expect(layoutFor({ width, sidebar: 'shown', plan: 'none', jobs: false }).sidebar).toBe(
        'overlay'
      )
      expect(chatWidth({ width, sidebar: 'shown', plan: 'rail', jobs: true })).toBe(width - 44)
    }
    expect(layoutFor({ width: 808, sidebar: 'shown', plan: 'none', jobs: false }).sidebar).toBe(
      'beside'
    )
  })

  it('floats the job monitor over the chat, leaving a strip of it uncovered', () => {
    const layout = layoutFor({ width: 640, sidebar: 'auto', plan: 'none', jobs: true })
    expect(layout.panels).toBe('overlay')
    expect(layout.dockWidth).toBe(360)
    expect(640 - layout.dockWidth).toBeGreaterThanOrEqual(48)
  })
})

describe('the sidebar toggle', () => {
  it('flips what the person sees, whatever the width decided', () => {
    expect(sidebarShown('auto', 1280)).toBe(true)
    expect(sidebarShown('auto', 900)).toBe(false)
    expect(toggledSidebar('auto', 1280)).toBe('hidden')
    expect(toggledSidebar('auto', 900)).toBe('shown')
    expect(toggledSidebar('shown', 900)).toBe('hidden')
    expect(toggledSidebar('hidden', 1280)).toBe('shown')
  })
})
