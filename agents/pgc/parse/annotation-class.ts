// The one class a type annotation names, as a function's return type or a variable's type says it
// (`-> t.Optional[URLSafeTimedSerializer]`, `: Promise<Foo | undefined>`): what the call graph takes the
// class of an object returned by a function from.

/**
 * A class name as code writes one: a capital, then some lower case (`HTTPConnection`; not `MAX` or `T`),
 * after any `$` or `_` a code base marks its internal classes with (Zod's `$ZodRegistry`, Python's `_Helper`).
 */
export const CLASS_NAME = /^[$_]*[A-Z][\w$]*[a-z][\w$]*$/;

const NOTHING = /^(None|null|undefined|void|NoneType)$/;

/** The one class a type annotation names, looking through optionality (`Optional[…]`, `Union[…, None]`, `| None`), `Promise<…>` and generics. */
export function classOfAnnotation(text: string): string | undefined {
  let type = text.trim().replace(/^["']|["']$/g, "");
  for (;;) {
    const wrapped = /^(?:[\w.]*\.)?(?:Optional|Promise|Awaitable|Coroutine\[[^,]*,[^,]*,)\s*[[<](.*)[\]>]$/.exec(type);
    if (!wrapped?.[1]) break;
    type = wrapped[1].trim();
  }
  // `Union[Foo, None]` is `Foo | None` (a union of plain names only: `Union[Dict[str, int], None]` is left whole).
  const union = /^(?:[\w.]*\.)?Union\[([^[\]]*)\]$/.exec(type);
  if (union?.[1]) type = union[1].split(",").join("|");
  const parts = type.split("|").map((part) => part.trim().replace(/^["']|["']$/g, "")).filter((part) => part !== "" && !NOTHING.test(part));
  if (parts.length !== 1) return undefined;
  const name = (parts[0] as string).replace(/[[<].*$/, "").split(".").at(-1) ?? "";
  return CLASS_NAME.test(name) ? name : undefined;
}
