/**
 * What `use` makes of `handle`, just opened: when it throws, the handle is closed before the error
 * goes on, so a check that fails after the open (what was opened is not what was looked at) leaves
 * no descriptor behind. On success the caller keeps the handle and closes it.
 */
export async function closedOnFailure<T>(
  handle: { close(): Promise<void> },
  use: () => Promise<T>
): Promise<T> {
  try {
    return await use()
  } catch (error) {
    await handle.close()
    throw error
  }
}
