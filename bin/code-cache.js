// Runs a CommonJS bundle compiled from a V8 code cache kept beside it (FILE.cache), so a process that
// starts often (a fleet's worker) skips most of parsing and compiling it. Node 20 has no compile cache
// for ES modules, hence CommonJS through vm.Script; V8 checks the cache against the source, its own
// version and flags, and compiles from source when it does not match (cachedDataRejected).
// The bundle is written as one function expression taking CommonJS's five parameters (its banner and
// footer), so its source is compiled as read: wrapping it here would keep a second copy of the whole
// bundle on the heap.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import vm from "node:vm";

/** Loads FILE as a CommonJS module and returns its exports and the compiled script. */
export function loadCompiled(file) {
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined; // no cache yet: compiled from source
  }
  const script = new vm.Script(readFileSync(file, "latin1"), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, script };
}

/** Stores the code of SCRIPT compiled so far (functions already run included) as FILE.cache, atomically. */
export function writeCodeCache(file, script) {
  const partial = `${file}.cache.${process.pid}`;
  writeFileSync(partial, script.createCachedData());
  renameSync(partial, `${file}.cache`);
}
