// English verbs whose past forms the Porter stemmer cannot bring back to their base: a question says what
// code does in the passive or the past ("how is the parent woken up", "where is the error thrown", "the
// page is written back"), while code names the act by its base form (`__wake_up_parent`, `throwError`,
// `write_back`). The tokenizer reads each of these words as its base before stemming, on both sides.
//
// Only forms whose common meaning in code is the verb: not `left` (a side), `bound` (a limit), `led`
// (a light), `bit`, `hid`, `saw`, `lay`, `ground`, `wound`, `done` (a state of its own), nor forms the
// stemmer already joins to their base (`sending`, `parsed`).
const BASES: Readonly<Record<string, readonly string[]>> = {
  begin: ["began", "begun"],
  break: ["broke", "broken"],
  bring: ["brought"],
  build: ["built"],
  rebuild: ["rebuilt"],
  catch: ["caught"],
  choose: ["chose", "chosen"],
  deal: ["dealt"],
  draw: ["drew", "drawn"],
  drive: ["drove", "driven"],
  feed: ["fed"],
  find: ["found"],
  forget: ["forgot", "forgotten"],
  // Not irregular, but the stemmer keeps "freed" whole (its rule for -eed words).
  free: ["freed"],
  freeze: ["froze", "frozen"],
  get: ["got", "gotten"],
  give: ["gave", "given"],
  go: ["went", "gone"],
  grow: ["grew", "grown"],
  hide: ["hidden"],
  hold: ["held"],
  keep: ["kept"],
  know: ["knew", "known"],
  lose: ["lost"],
  make: ["made"],
  mean: ["meant"],
  override: ["overrode", "overridden"],
  overwrite: ["overwrote", "overwritten"],
  prove: ["proven"],
  rewrite: ["rewrote", "rewritten"],
  run: ["ran"],
  say: ["said"],
  see: ["seen"],
  seek: ["sought"],
  send: ["sent"],
  show: ["shown"],
  shrink: ["shrank", "shrunk"],
  sleep: ["slept"],
  slide: ["slid"],
  spend: ["spent"],
  spin: ["spun"],
  sweep: ["swept"],
  take: ["took", "taken"],
  tear: ["tore", "torn"],
  tell: ["told"],
  think: ["thought"],
  throw: ["threw", "thrown"],
  undo: ["undid", "undone"],
  wake: ["woke", "woken"],
  write: ["wrote", "written"],
};

const BASE_OF: ReadonlyMap<string, string> = new Map(Object.entries(BASES).flatMap(([base, forms]) => forms.map((form) => [form, base] as const)));

/** The base form of a lowercase word that is a past form of an irregular verb; the word itself otherwise. */
export function baseForm(word: string): string {
  return BASE_OF.get(word) ?? word;
}
