// The plan panel as the rest of the window sees it: the panel, the plan fed to it, and whether
// there is one to lay out.
export { TodoPanel } from './todo-panel'
export { foldPlan, setPlan, useHasPlan, usePlanFolded } from './todo-store'
