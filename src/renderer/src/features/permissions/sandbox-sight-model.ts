import { looksSecret } from '../../../../shared/command-env'
import type { SandboxNetwork, SandboxView } from '../../../../shared/sandbox'

/** How a line of "What a command can see" is marked: what it allows, by how much it opens. */
export type Tone = 'safe' | 'neutral' | 'open' | 'wide'

export interface Reach {
  badge: string
  tone: Tone
  text: string
}

/**
 * The sentence over "What a command can see": whether it holds now (confined), would hold
 * (unconfined: commands see what the person sees), or holds once the sandbox works (refused).
 */
export function sightIntro(state: SandboxView['state']): { text: string; warn: boolean } {
  switch (state) {
    case 'unconfined':
      return {
        text: 'Commands are not confined now: they see and change everything you can. In the sandbox they would find this and nothing else.',
        warn: true
      }
    case 'refused':
      return {
        text: 'Commands are refused until the sandbox works; then they find this and nothing else.',
        warn: true
      }
    default:
      return {
        text: 'Shell’s commands, and MCP servers set to run in the sandbox, find this and nothing else.',
        warn: false
      }
  }
}

/** The network line, in a person's words. */
export function networkReach(network: SandboxNetwork): Reach {
  switch (network) {
    case 'off':
      return { badge: 'none', tone: 'safe', text: 'Nothing a command sends leaves this machine.' }
    case 'allowlist':
      return {
        badge: 'listed hosts',
        tone: 'open',
        text: 'Only the hosts listed under Connections, through Mecatl.'
      }
    case 'on':
      return { badge: 'anywhere', tone: 'wide', text: 'A command can reach any host.' }
  }
}

/** The Unix sockets line when none is listed, or null when some are (they are shown one by one). */
export function socketsReach(view: SandboxView): Reach | null {
  if (view.sockets.length > 0) return null
  if (view.unixSockets) {
    return {
      badge: 'Mecatl’s only',
      tone: 'neutral',
      text: 'Only the one Mecatl opens to reach the allowed hosts.'
    }
  }
  return {
    badge: 'none',
    tone: 'safe',
    text: 'A command can neither make nor reach one: no ssh-agent, no Docker, no desktop session.'
  }
}

/** What is said when Mecatl runs as root, or null when it does not. */
export function rootNote(view: SandboxView): string | null {
  if (!view.asRoot) return null
  const hidden =
    view.hiddenForRoot === 1
      ? 'the 1 file in these folders that only root may read is hidden from them'
      : view.hiddenForRoot > 1
        ? `the ${view.hiddenForRoot} files in these folders that only root may read are hidden from them`
        : 'files in these folders that only root may read are hidden from them'
  return `Mecatl runs as root here. Commands still run with no special powers: they cannot mount folders, make a new sandbox or look into programs outside it, and ${hidden}.`
}

export type HomeDefaultView = SandboxView['homeDefaults'][number]

/** The home directory's defaults: those on this machine, and those it does not have. */
export function homeDefaultsSplit(view: SandboxView): {
  here: HomeDefaultView[]
  elsewhere: HomeDefaultView[]
} {
  return {
    here: view.homeDefaults.filter((entry) => entry.present),
    elsewhere: view.homeDefaults.filter((entry) => !entry.present)
  }
}

/** A warning about a name a person lets through to commands. */
export interface VariableWarning {
  name: string
  text: string
}

/**
 * Warnings for the names listed in `shell.env_passthrough`: a key Mecatl uses (never passed,
 * and the file will not save), or a name that looks like it holds a secret.
 */
export function variableWarnings(
  listed: readonly string[],
  never: readonly string[]
): VariableWarning[] {
  return listed.flatMap((name) => {
    if (never.includes(name)) {
      return [
        {
          name,
          text: `${name} holds a key Mecatl itself uses, so commands never get it: take it off the list to save.`
        }
      ]
    }
    if (looksSecret(name)) {
      return [
        {
          name,
          text: `${name} looks like a secret. Whatever a command can print, the model reads: pass it only if the model may see it.`
        }
      ]
    }
    return []
  })
}
