// The manager: knows the workers and the topology, delegates tasks (replica choice, fail-over,
// re-assignment of legacy answers), answers multi-hop questions, validates every answer's evidence,
// and records audit lines and MANIFEST.jsonl entries.
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { MeshNode } from "../../bus/index.js";
import { TASK_REPLY_RETENTION_MS, type DelegatedTask, type Grounding } from "../protocol/index.js";
import type { Overrides, ScopeGraph } from "../../topology/index.js";
import { AgentsDirectory, type AgentInfo } from "./agents-directory.js";
import { AuditLog } from "./audit-log.js";
import { dispatchTask, replicaJoins, type Dispatched, type DispatchOptions } from "./dispatch.js";
import type { MultiHopResult } from "./answer/result.js";
import { askQuestion, type AskOptions } from "./answer/ask.js";
import { ScopeMap } from "./scope-map.js";
import { Journal, type Unfinished } from "./journal.js";
import { crashPoint } from "./crash-points.js";
import { newQuestionId } from "./question-id.js";
import { delegationEntry, skippedStepEntry } from "./manifest-entries.js";
import { projectNames } from "./entry/project-name.js";
import { SourceReader } from "../pgc/scan/index.js";
import { resolvePolicy, validateResponse, ValidationMetrics, type ValidationPolicy, type Verdict } from "./validation/index.js";

export interface ManagerOptions {
  node: MeshNode;
  /** Directory of audit.jsonl, hops.jsonl, outputs/ and MANIFEST.jsonl. */
  auditDir: string;
  /** The code base as the manager can read it, to verify citations itself; else replicas verify. */
  root?: string;
  overrides?: Overrides;
  validation?: Partial<ValidationPolicy>;
  /** JOIN_GRACE_MS unless given (tests shorten it). */
  joinGraceMs?: number;
  logger: Logger;
}

export interface DelegationResult extends Dispatched {
  verdict: Verdict;
  /** Attempts made: a rejected legacy answer is re-assigned to a worker that speaks protocol 2.0. */
  reassigned_from?: string;
}

export const PROTOCOL_WITH_EVIDENCE = "2.0";
const BEST_SCOPE_TIMEOUT_MS = 5_000;
/** How long a resumed task waits for its scope's workers to re-join the new manager. */
export const RESUME_WAIT_MS = 30_000;
/** An acknowledgement is one small request; a worker that misses it forgets the reply after its retention. */
const ACK_TIMEOUT_MS = 5_000;
/** Recent tasks whose dispatch the manager remembers after they are done (see `recent`). */
export const RECENT_TASKS = 10_000;
/** A resumed task gets at least this long, whatever was left of its own timeout. */
const RESUME_MIN_TIMEOUT_MS = 30_000;
/**
 * For this long after a manager starts, a task for a scope none of whose workers has joined it yet waits
 * for one (up to its own timeout) instead of failing with "no worker": a restarted manager hears from the
 * fleet's workers within a gossip period or two, and a task sent in that gap is not refused. Later, a
 * scope with no worker is refused at once.
 */
export const JOIN_GRACE_MS = 15_000;

export class Manager {
  readonly directory: AgentsDirectory;
  readonly scopeMap: ScopeMap;
  readonly audit: AuditLog;
  readonly metrics = new ValidationMetrics();
  readonly journal: Journal;
  /** Delegations running (or resumed) here, by task id. */
  private readonly inflight = new Map<string, Promise<DelegationResult>>();
  /** The replica and message id of each journaled task, to acknowledge its reply once it is recorded. */
  private readonly sentTo = new Map<string, { agent: string; messageId: string }>();
  /**
   * Where each recent task went, under which message id, kept after it is done (at most RECENT_TASKS, for
   * the workers' reply retention): a task sent again by its client after a failure — its worker was
   * declared gone in a partition, yet finished — goes to that worker under the same id, which answers
   * from its reply cache instead of running it a second time.
   */
  private readonly recent = new Map<string, { agent: string; messageId: string; at: number }>();
  private readonly sources: SourceReader;
  /** The code base's names (project-name.ts), read once from the root. */
  private readonly project: ReadonlySet<string>;
  private readonly logger: Logger;
  /** Checked here, once: a bad option fails the constructor, not every answer after a worker did the work. */
  private readonly policy: Readonly<ValidationPolicy>;
  private readonly startedAt = Date.now();

  constructor(private readonly options: ManagerOptions) {
    this.policy = resolvePolicy(options.validation);
    this.logger = options.logger.child({ component: "agents:manager" });
    this.directory = new AgentsDirectory(options.node);
    this.scopeMap = new ScopeMap(options.node, this.directory, this.logger, options.overrides);
    this.journal = new Journal(options.auditDir);
    this.audit = new AuditLog(options.auditDir, (error) => this.logger.error({ err: error, dir: options.auditDir }, "could not write an audit record"));
    this.sources = new SourceReader(options.root ?? "");
    this.project = projectNames(options.root);
  }

  listAgents(): AgentInfo[] {
    return this.directory.list();
  }

  topology(): Promise<ScopeGraph> {
    return this.scopeMap.current();
  }

  /** Ask one scope a question as a grounded task. */
  queryAgent(scope: string, question: string, grounding: Grounding = { strategy: "pgc_cite", evidence_required: true }): Promise<DelegationResult> {
    return this.delegate({ id: newTaskId(), task: question, acceptance_criteria: [], grounding }, { scope });
  }

  /**
   * Delegate a task to a scope, validate the answer, record it in MANIFEST.jsonl. The task is journaled
   * (fsync'd) before it is dispatched and marked done once its outcome is recorded; a task id already in
   * flight here is not run again: the caller gets the same outcome.
   */
  delegate(task: DelegatedTask, target: { scope: string; timeoutMs?: number; signal?: AbortSignal }): Promise<DelegationResult> {
    const running = this.inflight.get(task.id);
    if (running) return running;
    const before = this.recentDispatch(task.id);
    const messageId = before?.messageId ?? newMessageId();
    this.journal.accepted(task, target.scope, messageId, target.timeoutMs);
    crashPoint("after_journal");
    // Its worker, when it is back, has the reply (or the run) under that id: only it may take the task again.
    const preferred = before && this.directory.replicas(target.scope, new Set()).some((a) => a.id === before.agent) ? { accept: (a: AgentInfo) => a.id === before.agent } : {};
    return this.track(task.id, this.runDelegation(task, { ...target, messageId, ...preferred }));
  }

  private recentDispatch(taskId: string): { agent: string; messageId: string } | undefined {
    const entry = this.recent.get(taskId);
    if (!entry) return undefined;
    if (Date.now() - entry.at > TASK_REPLY_RETENTION_MS) {
      this.recent.delete(taskId);
      return undefined;
    }
    return entry;
  }

  private remember(taskId: string, sent: { agent: string; messageId: string }): void {
    this.recent.delete(taskId);
    this.recent.set(taskId, { ...sent, at: Date.now() });
    // Oldest first out: a Map iterates in insertion order.
    for (const key of this.recent.keys()) {
      if (this.recent.size <= RECENT_TASKS) break;
      this.recent.delete(key);
    }
  }

  /** The outcome of a delegation this manager runs (or resumes), when it is one. */
  inflightDelegation(taskId: string): Promise<DelegationResult> | undefined {
    return this.inflight.get(taskId);
  }

  /**
   * Resumes the tasks a previous manager of this fleet accepted and did not finish: each is sent again,
   * under its journaled message id, to the replica it went to (or, when that one is gone, to another of
   * its scope). Registered at once, so a client asking for one by id waits for it.
   */
  resumeJournal(): number {
    const unfinished = this.journal.unfinished();
    for (const entry of unfinished) {
      this.logger.warn({ task: entry.task.id, scope: entry.scope, agent: entry.agent }, "resuming a task a previous manager accepted");
      this.track(entry.task.id, this.resumeOne(entry));
    }
    return unfinished.length;
  }

  private async resumeOne(entry: Unfinished): Promise<DelegationResult> {
    // The fleet's workers re-join the new manager within a gossip period or two: wait for the one that had it.
    await replicaJoins(this.options.node, () => this.directory.replicas(entry.scope, new Set()).some((a) => a.id === entry.agent || entry.agent === undefined), Date.now() + RESUME_WAIT_MS);
    const preferred = this.directory.replicas(entry.scope, new Set()).some((a) => a.id === entry.agent) ? { accept: (a: AgentInfo) => a.id === entry.agent } : {};
    const remaining = entry.timeout_ms ? Math.max(RESUME_MIN_TIMEOUT_MS, entry.accepted_at + entry.timeout_ms - Date.now()) : undefined;
    return this.runDelegation(entry.task, { scope: entry.scope, messageId: entry.message_id, ...(remaining ? { timeoutMs: remaining } : {}), ...preferred });
  }

  private track(taskId: string, run: Promise<DelegationResult>): Promise<DelegationResult> {
    const settle = (answeredBy: string | null) => {
      this.inflight.delete(taskId);
      try {
        this.journal.done(taskId);
      } catch (error) {
        this.logger.error({ err: error, task: taskId }, "could not mark a task done in the journal");
        return;
      }
      const sent = this.sentTo.get(taskId);
      this.sentTo.delete(taskId);
      if (!sent) return;
      this.remember(taskId, sent);
      // Recorded and marked done with that worker's reply: it may forget the reply it kept for a resume.
      // A failed delegation acknowledges nothing: the worker may have finished the task all the same.
      if (answeredBy === sent.agent) void this.options.node.request(sent.agent, "ack", { message_ids: [sent.messageId] }, { timeoutMs: ACK_TIMEOUT_MS, attempts: 1 }).catch(() => undefined);
    };
    const tracked = run.then(
      (result) => {
        settle(result.agent.id);
        return result;
      },
      (error: unknown) => {
        settle(null);
        throw error;
      },
    );
    this.inflight.set(taskId, tracked);
    tracked.catch(() => undefined); // the caller sees the rejection; an abandoned one crashes nothing
    return tracked;
  }

  private async runDelegation(task: DelegatedTask, target: { scope: string; timeoutMs?: number; signal?: AbortSignal; messageId: string; accept?: (a: AgentInfo) => boolean }): Promise<DelegationResult> {
    const signal = target.signal ? { signal: target.signal } : {};
    const grace = this.startedAt + (this.options.joinGraceMs ?? JOIN_GRACE_MS);
    const first = await this.dispatchAndValidate(task, target.scope, { ...signal, ...(Date.now() < grace ? { awaitReplicaUntil: grace } : {}), messageId: target.messageId, onAgent: (a) => {
          this.journal.dispatched(task.id, a.id);
          this.sentTo.set(task.id, { agent: a.id, messageId: target.messageId });
        }, ...(target.accept ? { accept: target.accept } : {}) }, target.timeoutMs);
    crashPoint("after_reply");
    let result: DelegationResult = first;
    if (first.verdict.code === "PROTOCOL_MISMATCH") {
      // Seed 002 §5.1: re-assign to a worker that speaks the grounding protocol.
      this.logger.warn({ task: task.id, worker: first.agent.id }, "answer without evidence; re-assigning to a protocol 2.0 worker");
      const retry = await this.dispatchAndValidate(task, target.scope, { ...signal, exclude: new Set([first.agent.id]), accept: (a) => a.protocol_versions.includes(PROTOCOL_WITH_EVIDENCE) }, target.timeoutMs).catch(() => null);
      if (retry) result = { ...retry, reassigned_from: first.agent.id };
    }
    await this.recordManifest(task, result);
    return result;
  }

  /**
   * A multi-hop question, answered by the call-graph search: a traced path (with `to`, along the scope
   * graph's route). `mode: "planned"` instead delegates one task per hop along the route from `from` to `to`.
   */
  ask(question: string, options: AskOptions = {}): Promise<MultiHopResult> {
    const { node, root } = this.options;
    // A caller may name the answer (a live view follows its hops by that id); else the manager does.
    return askQuestion({ node, directory: this.directory, scopeMap: this.scopeMap, audit: this.audit, logger: this.logger, readFile: root ? async (path) => this.sources.read(path) : null, validate: (task, dispatched) => this.validate(task, dispatched), project: this.project }, question, { ...options, id: options.id ?? newTaskId() });
  }

  private async dispatchAndValidate(task: DelegatedTask, scope: string, extra: Omit<DispatchOptions, "timeoutMs">, timeoutMs?: number): Promise<DelegationResult> {
    const dispatched = await dispatchTask(this.options.node, this.directory, scope, task, { ...extra, ...(timeoutMs ? { timeoutMs } : {}) }, this.logger);
    return { ...dispatched, verdict: await this.validate(task, dispatched) };
  }

  private async validate(task: DelegatedTask, dispatched: Dispatched): Promise<Verdict> {
    const { agent, response } = dispatched;
    const verdict = await validateResponse({
      task,
      response,
      scope: { name: agent.scope, paths: agent.scope_paths },
      readFile: this.options.root ? async (path) => this.sources.read(path) : null,
      verifyRemote: (citations) => this.verifyElsewhere(agent, citations),
      policy: this.policy,
    });
    this.metrics.record(verdict, response, task);
    return verdict;
  }

  /** Another replica of the scope re-hashes the cited lines (the manager cannot read the root). */
  private async verifyElsewhere(agent: AgentInfo, citations: readonly unknown[]): Promise<boolean[]> {
    const other = this.directory.replicas(agent.scope, new Set([agent.id]))[0];
    if (!other) throw new Error(`no other replica of ${agent.scope} to verify citations`);
    return (await this.options.node.request(other.id, "verify", { citations }, { timeoutMs: BEST_SCOPE_TIMEOUT_MS })) as boolean[];
  }

  /**
   * A plan step that never ran (blocked by a failed dependency, or cancelled) still gets its MANIFEST.jsonl
   * line (seed 001): status blocked, the reason as the follow-up, the step it waited on as a linked task.
   */
  async recordSkippedStep(step: { id: string; scope: string; title: string; reason: string; linked_tasks: string[] }): Promise<void> {
    const file = await this.audit.writeOutputFile(step.id, { skipped: step });
    await this.audit.appendManifest(skippedStepEntry(step, file));
  }

  private async recordManifest(task: DelegatedTask, result: DelegationResult): Promise<void> {
    const file = await this.audit.writeOutputFile(task.id, { task, response: result.response, verdict: result.verdict, agent: result.agent.id });
    await this.audit.appendManifest(delegationEntry(task, result, file));
  }
}

/** A message id for a journaled task: unique across manager restarts (the bus's own restart per incarnation). */
function newMessageId(): string {
  return `j.${randomBytes(9).toString("base64url")}`;
}

function newTaskId(): string {
  return newQuestionId();
}
