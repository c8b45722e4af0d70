// Background jobs as the rest of the window sees it: the monitor and its toggle, a tool call's
// live command, the monitor's state, and the wiring that feeds it from the bridge.
export { JobMonitor } from './job-monitor'
export {
  applyJobEvent,
  closeMonitor,
  monitorOpen,
  reloadJobs,
  toggleMonitor,
  useMonitorOpen,
  wireJobs
} from './jobs-store'
export { JobsToggle } from './jobs-toggle'
export { ShellCallLive } from './shell-call-live'
