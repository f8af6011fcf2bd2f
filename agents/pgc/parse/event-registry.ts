// Event registries (Python, TS/JS): code registers a function under a string key and later runs every
// function registered so by emitting the key — botocore's `events.register('needs-retry.%s' % service,
// handler.needs_retry)` and `emit('needs-retry.%s.%s' % (service, op), …)`, Sphinx's `app.connect(
// 'autodoc-skip-member', fn)` and `app.emit_firstresult('autodoc-skip-member', …)`, Node's `emitter.on('close',
// this.onClose)` and `this.emit('close')`. The registration is a binding of the key's pseudo-field
// (`event:needs-retry`) and the emission a call through it, so the path a question follows goes from the code
// emitting the event to the handler, as a call through a C struct field goes to what was stored into it
// (docs/PGC.md, rule 11).
import type { Node } from "web-tree-sitter";
import { EVENT_MARK } from "../../protocol/index.js";
import type { ExtractContext } from "./extract-context.js";
import { startLine } from "./node-text.js";

/** Method names that register a handler under a key: `register`, `register_first`, `on`, `once`, `connect`, `addListener`, `addEventListener`, `subscribe`, `hook`. */
const REGISTERS = /^(?:register(?:_\w+|[A-Z]\w*)?|on|once|connect|add_?[lL]istener|addEventListener|prepend(?:Once)?Listener|subscribe|hook|listen)$/;
/** Method names that run the handlers registered under a key: `emit`, `emit_until_response`, `emitAsync`, `trigger`, `fire`, `dispatch`, `publish`, `callHook`. */
const EMITS = /^(?:_?emit(?:_\w+|[A-Z]\w*)?|trigger|fire(?:_\w+|[A-Z]\w*)?|dispatch|publish|call_?[hH]ook)$/;
/** A key: words joined by hyphens, underscores, colons and dots (`needs-retry`, `autodoc-skip-member`, `request:start`, `response.created`), three characters at least. */
const KEY = /^[A-Za-z_][\w:.-]*[A-Za-z0-9]$/;
const MIN_KEY_CHARS = 3;

/** The literal start of a string expression, and whether the literal is the whole value. */
interface Literal {
  head: string;
  complete: boolean;
  line: number;
}

/**
 * What a string-valued expression says for certain: the text of a plain literal; the text before the first
 * placeholder of an f-string, a template string, `'a.%s' % x` or `'a.{}'.format(x)`; the left literal of
 * `'a.' + x`. Null for anything else (a name, a call, a byte string).
 */
function literalOf(node: Node): Literal | null {
  const line = startLine(node);
  if (node.type === "string") {
    const opening = node.child(0);
    if (opening?.type === "string_start" && /[bB]/.test(opening.text)) return null;
    let head = "";
    for (const part of node.namedChildren) {
      if (!part) continue;
      if (part.type === "string_content" || part.type === "string_fragment") head += part.text;
      else if (part.type === "interpolation" || part.type === "escape_sequence") return { head, complete: false, line };
    }
    return { head, complete: true, line };
  }
  if (node.type === "template_string") {
    let head = "";
    for (const part of node.namedChildren) {
      if (part?.type === "string_fragment") head += part.text;
      else if (part) return { head, complete: false, line };
    }
    return { head, complete: true, line };
  }
  if (node.type === "binary_operator" || node.type === "binary_expression") {
    const left = node.childForFieldName("left");
    const operator = node.childForFieldName("operator")?.text;
    const literal = left && (operator === "%" || operator === "+") ? literalOf(left) : null;
    if (!literal) return null;
    const cut = operator === "%" ? literal.head.indexOf("%") : -1;
    return { head: cut >= 0 ? literal.head.slice(0, cut) : literal.head, complete: false, line };
  }
  if (node.type === "call") {
    // `'request-created.{service_id}.{op_name}'.format(…)`
    const fn = node.childForFieldName("function");
    const object = fn?.type === "attribute" && fn.childForFieldName("attribute")?.text === "format" ? fn.childForFieldName("object") : null;
    const literal = object ? literalOf(object) : null;
    if (!literal) return null;
    const cut = literal.head.indexOf("{");
    return { head: cut >= 0 ? literal.head.slice(0, cut) : literal.head, complete: false, line };
  }
  return null;
}

/**
 * The key an event's string names: all the literal spells for certain, to its last whole dotted part when a
 * placeholder follows (`needs-retry` of `'needs-retry.%s.%s' % …`, as of `f'needs-retry.{service}'`: botocore
 * registers and emits its events so; `response.output_text.delta` of a plain literal); null when no whole part
 * is spelled (`f"{kind}-done"`, `` `frame:${id}` ``).
 */
export function eventKey(literal: Literal): string | null {
  const key = literal.complete ? literal.head : literal.head.slice(0, Math.max(0, literal.head.lastIndexOf(".")));
  return key.length >= MIN_KEY_CHARS && KEY.test(key) ? key : null;
}

/** A function named as a value: `fn`, `self.on_close`, `handler.needs_retry`, `this.onClose`, `this.#onClose`, `this.onClose.bind(this)`; its last name, or null. */
function handlerName(node: Node): string | null {
  if (node.type === "identifier") return node.text;
  if (node.type === "attribute") return node.childForFieldName("attribute")?.text ?? null;
  if (node.type === "member_expression") {
    const property = node.childForFieldName("property");
    return property?.type === "property_identifier" || property?.type === "private_property_identifier" ? property.text : null;
  }
  if (node.type === "call_expression") {
    const fn = node.childForFieldName("function");
    const bound = fn?.type === "member_expression" && fn.childForFieldName("property")?.text === "bind" ? fn.childForFieldName("object") : null;
    return bound ? handlerName(bound) : null;
  }
  return null;
}

/** The method a call names (`register` of `client.meta.events.register(…)`), or null for a plain call. */
function methodName(fn: Node): string | null {
  if (fn.type === "attribute") return fn.childForFieldName("attribute")?.text ?? null;
  if (fn.type === "member_expression") return fn.childForFieldName("property")?.text ?? null;
  return null;
}

/** Positional arguments (Python's keyword arguments left out). */
function positional(call: Node): Node[] {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== "keyword_argument" && a.type !== "comment");
}

/** What a name was last given before `at` in the calling function (Python: a local holding the event's name). */
export type LastValue = (name: string, at: number) => Node | null;

/**
 * Records a call's part in an event registry: a registration (a REGISTERS method handed a key and then a
 * function by name) binds each function to the key's pseudo-field, at the line naming it; an emission (an
 * EMITS method whose first argument is a key, or a local last assigned one) is a call through the
 * pseudo-field, at the line of the key's literal (where the code names the event).
 */
export function onEventCall(ctx: ExtractContext, call: Node, caller: string | null, lastValue: LastValue): void {
  const fn = call.childForFieldName("function");
  const method = fn ? methodName(fn) : null;
  if (!method) return;
  const registers = REGISTERS.test(method);
  if (!registers && !EMITS.test(method)) return;
  const args = positional(call);
  const first = args[0];
  if (!first) return;
  const value = first.type === "identifier" && !registers ? lastValue(first.text, call.startIndex) : first;
  const literal = value ? literalOf(value) : null;
  const key = literal ? eventKey(literal) : null;
  if (!literal || key === null) return;
  const field = `${EVENT_MARK}${key}`;
  if (registers) {
    for (const arg of args.slice(1)) {
      const target = handlerName(arg);
      if (target) ctx.out.bindings.push({ field, target, file_path: ctx.path, line: startLine(arg) });
    }
    return;
  }
  // The callee is the pseudo-field itself: the call graph links it as a call through that field (fieldCalled).
  ctx.out.calls.push({ callee: field, caller, file_path: ctx.path, line: literal.line, plain: false, local: false });
}
