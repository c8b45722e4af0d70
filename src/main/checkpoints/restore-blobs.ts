/** Runs one git command in a store and answers its output as bytes. */
export type GitBytes = (args: string[], input: string) => Promise<Buffer>

/** Most bytes read from the store in one git run: a restore holds one batch at a time. */
export const BATCH_BYTES = 32 * 1024 * 1024
/** Blobs at most this many to a run read without asking their sizes first. */
const UNSIZED_BLOBS = 8

/**
 * Reads blobs of the store in batches of at most BATCH_BYTES (one larger blob is a batch of its
 * own), by `git cat-file --batch`, so a restore never writes a file through git: git writes by
 * path and would follow a folder swapped for a link. A few blobs no larger than `largest` each
 * are read in one run; otherwise their sizes are asked first. Yields each batch as it is read.
 */
export async function* readBlobs(
  gitBytes: GitBytes,
  oids: readonly string[],
  largest: number
): AsyncGenerator<Map<string, Buffer>> {
  const unique = [...new Set(oids)]
  if (unique.length === 0) return
  if (unique.length <= UNSIZED_BLOBS && unique.length * largest <= BATCH_BYTES) {
    yield await catBatch(gitBytes, unique)
    return
  }
  const sizes = await blobSizes(gitBytes, unique)
  let batch: string[] = []
  let bytes = 0
  for (const oid of unique) {
    const size = sizes.get(oid) ?? 0
    if (batch.length > 0 && bytes + size > BATCH_BYTES) {
      yield await catBatch(gitBytes, batch)
      batch = []
      bytes = 0
    }
    batch.push(oid)
    bytes += size
  }
  if (batch.length > 0) yield await catBatch(gitBytes, batch)
}

/** Each blob's size, by `git cat-file --batch-check`; a missing one is left out. */
async function blobSizes(
  gitBytes: GitBytes,
  oids: readonly string[]
): Promise<Map<string, number>> {
  const out = (await gitBytes(['cat-file', '--batch-check'], `${oids.join('\n')}\n`)).toString()
  const sizes = new Map<string, number>()
  for (const line of out.split('\n')) {
    const [oid = '', type, size] = line.split(' ')
    if (type === 'blob') sizes.set(oid, Number(size))
  }
  return sizes
}

/**
 * The blobs `oids` by `git cat-file --batch`: for each, a line `<oid> <type> <size>` (or `<oid>
 * missing`), its bytes and a newline. A missing one is left out of the answer.
 */
async function catBatch(gitBytes: GitBytes, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = await gitBytes(['cat-file', '--batch'], `${oids.join('\n')}\n`)
  const blobs = new Map<string, Buffer>()
  let at = 0
  while (at < out.length) {
    const end = out.indexOf(0x0a, at)
    if (end < 0) break
    const [oid = '', type, size] = out.subarray(at, end).toString().split(' ')
    at = end + 1
    if (type === undefined || type === 'missing' || size === undefined) continue
    const length = Number(size)
    if (type === 'blob') blobs.set(oid, out.subarray(at, at + length))
    at += length + 1
  }
  return blobs
}
