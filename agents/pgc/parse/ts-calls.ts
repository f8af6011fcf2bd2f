// TypeScript, TSX and JavaScript calls: each call or construction (and each property read through an object
// of known class) becomes a pending call while the file is walked, resolved against the file's imports and
// locals once it has been (a call may come before the import or local it names).
import type { Node } from "web-tree-sitter";
import { JS_ASSERTION_NAMES } from "./assertion-names.js";
import { candidateNames, moduleMember, renamedImport } from "./import-bindings.js";
import { isLocalValue } from "./local-values.js";
import { calleeLine, collapse, endLine, onErrorPath, startLine } from "./node-text.js";
import { heldField, receiverClass, receiverFields } from "./receiver-class.js";
import { matchRisk } from "./risk-rules.js";
import type { PendingCall, TsState } from "./ts-definitions.js";
import { readRequireCall } from "./ts-imports.js";
import { onEventCall, type LastValue } from "./event-registry.js";

/** TS/JS: an event is named by its literal at the call (a local holding its name is not followed). */
const NO_LOCALS: LastValue = () => null;

/** A call or construction: a pending call, through `f.call(…)` / `f.apply(…)` to `f` itself. */
export function onCall(state: TsState, node: Node): void {
  const written = node.childForFieldName(node.type === "new_expression" ? "constructor" : "function");
  if (!written) return;
  if (node.type === "call_expression") readRequireCall(state.ctx, node, written, state.bindings);
  const fn = node.type === "call_expression" ? (calledThrough(written, node, state) ?? written) : written;
  const plain = fn.type === "identifier";
  const callee = plain ? fn.text : collapse(fn.text, 120);
  const receiver = plain ? undefined : receiverClass(fn, "ts", state.receivers);
  const held = !plain && node.type === "call_expression" && heldField(fn, "ts", state.receivers);
  state.pending.push({ node, callee, plain, caller: state.ctx.caller(), ...(receiver ? { receiver } : {}), ...(held ? { held: true as const } : {}) });
}

/**
 * `editor.state`, `this.extensionManager.nodeViews`: a property read through a variable or a field of the
 * object, not called and not assigned to, when the calling function says the object's class. It runs that
 * class's getter if the scope defines one (the call graph keeps it only then: CallSite.read); reads through
 * the object's own `this` are PropertyReads'.
 */
export function onMemberRead(state: TsState, node: Node): void {
  const parent = node.parent;
  if (!parent || parent.type === "new_expression") return;
  if (parent.type === "call_expression" && parent.childForFieldName("function")?.id === node.id) return;
  // Written to (`x.y = …`, `x.y += …`, `x.y++`) or deleted: no read of a getter.
  if (/assignment/.test(parent.type) && parent.childForFieldName("left")?.id === node.id) return;
  if (parent.type === "update_expression" || (parent.type === "unary_expression" && parent.child(0)?.type === "delete")) return;
  const caller = state.ctx.caller();
  if (caller === null) return;
  const receiver = receiverClass(node, "ts", state.receivers);
  if (!receiver) return;
  state.pending.push({ node, callee: collapse(node.text, 120), plain: false, caller, receiver, read: true });
}

/**
 * `f.call(thisArg, …)`, `f.apply(thisArg, args)`: a call of the function `f` (axios's
 * `transformData.call(config, …)` calls `transformData`), not of a method named `call`. Only when `f` is a
 * plain name the calling function does not bind itself — a function of the file or an import: an object's
 * own `call` or `apply` method (`opts.apply()`, webpack's `plugin.apply(compiler)`, an RPC client's
 * `client.call(…)`) is called through a parameter or variable, or a member.
 */
function calledThrough(fn: Node, call: Node, state: TsState): Node | null {
  if (fn.type !== "member_expression") return null;
  const property = fn.childForFieldName("property")?.text;
  if (property !== "call" && property !== "apply") return null;
  const object = fn.childForFieldName("object");
  return object?.type === "identifier" && !isLocalValue(call, object.text, "ts", state.locals) ? object : null;
}

/** A pending call as the file's call record, with its assertion or risky sink when its callee is one. */
export function resolveCall(state: TsState, call: PendingCall): void {
  const { ctx, bindings } = state;
  const binding = call.plain ? bindings.get(call.callee) : undefined;
  const line = startLine(call.node);
  ctx.out.calls.push({
    callee: call.callee,
    caller: call.caller,
    file_path: ctx.path,
    line: calleeLine(call.node),
    plain: call.plain,
    local: call.plain && isLocalValue(call.node, call.callee, "ts", state.locals),
    ...(binding ? { imported_from: binding.module } : {}),
    ...moduleMember(call.callee, call.plain, bindings, false),
    ...renamedImport(call.callee, call.plain, bindings),
    ...receiverFields(call.receiver),
    ...(onErrorPath(call.node, "ts") ? { error_path: true as const } : {}),
    ...(call.read ? { read: true as const } : {}),
    ...(call.held ? { held: true as const } : {}),
  });
  // A read is no call: it has no assertion or risky sink of its own.
  if (call.read) return;
  // `emitter.on('close', this.onClose)`, `this.emit('close')`: an event registry's binding or call (event-registry.ts).
  if (!call.plain && call.node.type === "call_expression") onEventCall(ctx, call.node, call.caller, NO_LOCALS);
  const names = candidateNames(call.callee, call.plain, bindings);
  const span = { line_start: line, line_end: endLine(call.node), caller: call.caller };
  if (names.some((name) => JS_ASSERTION_NAMES.has(name))) {
    ctx.out.assertions.push({ kind: call.callee, text: collapse(call.node.text, 200), ...span });
  }
  const rule = matchRisk("js", names, call.node.childForFieldName("arguments"));
  if (rule) ctx.out.risks.push({ api: call.callee, reason: rule.reason, severity: rule.severity, ...span });
}
