// Calls that state a property the code relies on (O6): assertions, BUG_ON/WARN_ON, static assertions.

const C_ASSERTIONS = [
  "assert", "BUG", "BUG_ON", "VM_BUG_ON", "WARN", "WARN_ON", "WARN_ONCE", "WARN_ON_ONCE",
  "BUILD_BUG_ON", "BUILD_BUG_ON_MSG", "static_assert", "_Static_assert",
];
const JS_ASSERTIONS = [
  "console.assert", "assert", "assert.ok", "assert.equal", "assert.strictEqual", "assert.deepEqual",
  "assert.deepStrictEqual", "assert.notEqual", "assert.notStrictEqual", "assert.match", "invariant",
];

export const C_ASSERTION_NAMES: ReadonlySet<string> = new Set(C_ASSERTIONS);
export const JS_ASSERTION_NAMES: ReadonlySet<string> = new Set(JS_ASSERTIONS);
