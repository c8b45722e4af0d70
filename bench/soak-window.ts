// What the soak does in the window, as a person does it: types and sends messages, makes and
// picks sessions, and stops and dismisses jobs in the job monitor. Each step waits on what the
// page shows, never on a clock.
import type { Page } from 'playwright-core'
import { itemsOf } from './recorded-session'

/** The longest one step may take before the soak stops and says which step it was. */
const STEP_TIMEOUT_MS = 60_000

/**
 * Waits until no turn runs and the latest reply holds `marker`. In-page code as text (the bench
 * is compiled without the DOM's types), run by `evaluate`: the page's CSP forbids the string
 * evaluation `waitForFunction` would do with it.
 */
async function turnOver(page: Page, marker: string): Promise<void> {
  const script = `new Promise((resolve, reject) => {
    const marker = ${JSON.stringify(marker)}
    const deadline = Date.now() + ${STEP_TIMEOUT_MS}
    const over = () => {
      if (document.querySelector('[data-testid="stop-button"]')) return false
      if (!document.querySelector('[data-testid="send-button"]')) return false
      const replies = document.querySelectorAll('[data-testid="message-assistant"]')
      const last = replies[replies.length - 1]
      return last !== undefined && last.textContent.includes(marker)
    }
    const check = () => {
      if (over()) resolve(true)
      else if (Date.now() > deadline) reject(new Error('no reply ending in "' + marker + '" came'))
      else setTimeout(check, 10)
    }
    check()
  })`
  await page.evaluate(script)
}

/** Sends `text` from the composer and waits until the turn is over and its reply holds `marker`. */
export async function sendTurn(page: Page, text: string, marker: string): Promise<void> {
  await page.getByTestId('composer-input').fill(text)
  await page.getByTestId('send-button').click()
  await turnOver(page, marker)
}

/** Starts a new session from the sidebar and waits until its empty conversation is shown. */
export async function newSession(page: Page): Promise<void> {
  await page.getByTestId('new-session-button').click()
  await page
    .locator('[data-testid="transcript"][data-items="0"]')
    .waitFor({ timeout: STEP_TIMEOUT_MS })
  await page.getByTestId('composer-input').waitFor()
}

/** Clicks the row of the session whose title starts with `title`. */
async function pickSession(page: Page, title: string): Promise<void> {
  await page
    .locator(`[data-testid="session-item"][title^=${JSON.stringify(title)}]`)
    .first()
    .click()
}

/**
 * Picks a recorded session (see recorded-session.ts) of `events` events by its title, and waits
 * until all of its transcript is in: a long one shows its first screen, then reads the rest.
 */
export async function openRecorded(page: Page, title: string, events: number): Promise<void> {
  await pickSession(page, title)
  await page
    .locator(`[data-testid="transcript"][data-items="${itemsOf(events)}"]`)
    .waitFor({ timeout: STEP_TIMEOUT_MS })
}

/** Picks a session of the soak by its title and waits until its latest reply, `marker`, shows. */
export async function openSession(page: Page, title: string, marker: string): Promise<void> {
  await pickSession(page, title)
  await turnOver(page, marker)
}

/**
 * Stops the job the monitor shows with its Stop button, then dismisses it, as a person clears a
 * watcher away; waits until the monitor lists no job.
 */
export async function stopAndDismissJob(page: Page): Promise<void> {
  const monitor = page.getByTestId('job-monitor')
  await monitor.getByTestId('job-stop').click()
  await monitor.getByTestId('job-dismiss').click({ timeout: STEP_TIMEOUT_MS })
  await monitor.getByTestId('job-row').waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS })
}

/** Opens the job monitor, where it stays for the whole soak. */
export async function openJobMonitor(page: Page): Promise<void> {
  await page.getByTestId('jobs-toggle').click()
  await page.getByTestId('job-monitor').waitFor()
}

/** Waits until the monitor follows a running job and its terminal has drawn something. */
export async function floodShown(page: Page): Promise<void> {
  const monitor = page.getByTestId('job-monitor')
  await monitor.locator('[data-testid="job-row"][data-state="running"]').waitFor({
    timeout: STEP_TIMEOUT_MS
  })
  await monitor
    .locator('[data-testid="job-terminal"] .xterm-rows')
    .getByText('building module')
    .first()
    .waitFor({ timeout: STEP_TIMEOUT_MS })
}
