import { RpcError } from '../../../shared/contract/frames'

/** The message of anything thrown, for showing in place. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** Field problems an RpcError carries (invalid input), or none. */
export function errorIssues(error: unknown): { path: string; message: string }[] {
  return error instanceof RpcError && error.issues ? error.issues : []
}
