// C deferred work: a function handed to a call beside the address of a struct field is stored into that
// field (`INIT_WORK(&vi->config_work, virtnet_config_changed_work)`, `timer_setup(&t->timer, fn, 0)`,
// `tasklet_setup(&x->tasklet, fn)`), and a call that queues, schedules or arms an item by its address
// (`schedule_work(&vi->config_work)`, `mod_timer(&t->timer, …)`) runs what was stored into it, later, from
// the kernel's worker: the path a question follows goes from the code queueing the item to the function,
// not from the code that set the item up (which never calls it). docs/PGC.md, rule 11.
import type { Node } from "web-tree-sitter";
import type { ExtractContext } from "./extract-context.js";
import { collapse, startLine } from "./node-text.js";

/**
 * The kernel's calls that run a work item, timer, tasklet or irq_work later by its address: workqueues
 * (`schedule_work`, `queue_work`, `queue_delayed_work`, `mod_delayed_work`, their `_on` forms, `queue_rcu_work`),
 * kthread workers, timers (`mod_timer`, `add_timer`, `timer_reduce`), tasklets and irq_work. Not those
 * that cancel, flush or wait for one: they never run it.
 */
const RUNS_LATER = /^(?:(?:schedule|queue|mod)_(?:delayed_)?work(?:_on)?|queue_rcu_work|kthread_(?:queue|mod)_(?:delayed_)?work|mod_timer(?:_pending)?|add_timer(?:_on)?|timer_reduce|tasklet_(?:hi_)?schedule|irq_work_queue(?:_on)?)$/;

/** A function name as an argument: lower case with an underscore (`virtnet_config_changed_work`), not a plain variable. */
const FUNCTION_NAME = /^[a-z][a-z0-9]*_[a-z0-9_]*$/;

/** `&x->field` or `&x.a.field` (a cast or brackets around it looked through): the field expression, or null. */
function fieldAddress(node: Node | null | undefined): Node | null {
  let value = node ?? null;
  while (value && (value.type === "cast_expression" || value.type === "parenthesized_expression")) value = value.childForFieldName("value") ?? value.namedChildren.at(-1) ?? null;
  if (value?.type !== "pointer_expression" || value.childForFieldName("operator")?.text !== "&") return null;
  const target = value.childForFieldName("argument");
  return target?.type === "field_expression" && target.childForFieldName("field")?.type === "field_identifier" ? target : null;
}

/**
 * Records a call's deferred work: the functions it stores into the field whose address is its first
 * argument (as bindings of that field), and, for a call that runs an item later (RUNS_LATER), a call
 * through the field of each item it is handed. Returns the names bound, which are not calls of this one.
 */
export function onDeferredWork(ctx: ExtractContext, node: Node, callee: string, caller: string | null, locals: () => ReadonlySet<string>): ReadonlySet<string> {
  const args = node.childForFieldName("arguments")?.namedChildren ?? [];
  let bound: Set<string> | null = null;
  const item = fieldAddress(args[0]);
  const field = item?.childForFieldName("field")?.text;
  if (field) {
    for (const arg of args.slice(1)) {
      if (arg?.type !== "identifier" || !FUNCTION_NAME.test(arg.text) || locals().has(arg.text)) continue;
      ctx.out.bindings.push({ field, target: arg.text, file_path: ctx.path, line: startLine(arg) });
      (bound ??= new Set()).add(arg.text);
    }
  }
  if (RUNS_LATER.test(callee)) {
    for (const arg of args) {
      const through = fieldAddress(arg);
      if (through) ctx.out.calls.push({ callee: collapse(through.text, 120), caller, file_path: ctx.path, line: startLine(through), plain: false, local: false });
    }
  }
  return bound ?? NOTHING;
}

const NOTHING: ReadonlySet<string> = new Set();
