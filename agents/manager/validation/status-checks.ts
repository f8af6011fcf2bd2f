// Is the response an answer to this task at all? failed, blocked and needs_clarification are not
// evidence of anything; partial is an answer with gaps the manager must follow up.
import type { DelegatedTask, TaskResponse } from "../../protocol/index.js";
import type { VerdictBuilder } from "./verdict-builder.js";

/** False when the response answers another task; nothing else about it can then be judged. */
export function checkIdentity(task: DelegatedTask, response: TaskResponse, v: VerdictBuilder): boolean {
  const same = response.task_id === task.id;
  if (!v.check("task_id", same, same ? `answers ${task.id}` : `answers ${response.task_id}, not ${task.id}`)) {
    v.reject("INVALID_RESPONSE", `the response answers task ${response.task_id}, not ${task.id}`);
  }
  return same;
}

function workerErrorText(response: TaskResponse): string {
  return response.error ? `${response.error.code}: ${response.error.message}` : "no error given";
}

/** True when the response is an answer (completed or partial) whose evidence is worth checking. */
export function checkStatus(response: TaskResponse, v: VerdictBuilder): boolean {
  v.workerError = response.error;
  switch (response.status) {
    case "completed":
      return v.check("status", true, "completed");
    case "partial":
      v.check("status", true, "partial: an answer with gaps");
      v.warn(`partial result (${workerErrorText(response)}); what remains is listed in needs_followup`);
      if (response.error) v.followUp(`the worker stopped short: ${workerErrorText(response)}`);
      return true;
    case "failed":
    case "blocked": {
      const retry = response.error?.retryable ? "retryable on another replica" : "not retryable";
      v.check("status", false, `${response.status}: ${workerErrorText(response)}`);
      v.reject(response.status === "failed" ? "TASK_FAILED" : "TASK_BLOCKED", `the worker reported ${response.status} (${workerErrorText(response)}); ${retry}`);
      return false;
    }
    case "needs_clarification": {
      const request = response.clarification_request;
      const options = request?.options?.length ? ` (options: ${request.options.join(" | ")})` : "";
      v.check("status", false, "needs_clarification: a question, not an answer");
      v.reject("CLARIFICATION_NEEDED", `the worker needs an answer first: ${request?.question ?? "(no question given)"}${options}`);
      return false;
    }
    default: {
      const unknown: never = response.status;
      v.check("status", false, `unknown status ${String(unknown)}`);
      v.reject("INVALID_RESPONSE", `unknown status ${String(unknown)}`);
      return false;
    }
  }
}
