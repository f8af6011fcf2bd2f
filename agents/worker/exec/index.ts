// Public face of the exec adapter: any agent CLI as a worker's executor, through CDP workspaces.
export { createExecExecutor, type ExecExecutorOptions } from "./exec-executor.js";
export { ExecutorConfigError } from "./executor-config-error.js";
export { renderHandoff } from "./handoff.js";
export { MAX_OUTPUT_BYTES, parseOutputFile, SECTION_NAMES, statusFromValue, type OutputContext } from "./output-file.js";
export { runCommand, type CapturedOutput, type RunOutcome, type RunRequest } from "./run-command.js";
export { DEFAULT_KILL_GRACE_MS, DEFAULT_REPLY_MARGIN_MS, planStop, type StopPlan } from "./stop-plan.js";
export { EXEC_LOG_FILE, HANDOFF_FILE, OUTPUT_FILE, WORK_FILE, WORKSPACES_DIR, workspaceName } from "./workspace.js";
export { LOCK_FILE, WorkspaceBusyError } from "./workspace-lock.js";
