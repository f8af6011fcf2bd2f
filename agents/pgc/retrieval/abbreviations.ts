// How code spells what a question says in words. Used wherever a question term is compared with code
// names (the call-graph search on workers, the manager's entry scoring), so both sides agree.
import { tokenize } from "./tokenizer.js";

/** A word as the tokenizer keys it ("receive" → "receiv"), so it compares with a name's parts. */
function stem(word: string): string {
  return tokenize(word)[0] ?? word.toLowerCase();
}

/**
 * Kernel and library habit: "received" is `rcv`/`rx`, "transmit" `xmit`, "find" `lookup`, "packet" `skb`.
 * Keyed by the word's stem; each spelling is stemmed too. Only spellings a name part can hold whole.
 */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  receive: ["rcv", "recv", "rx"],
  transmit: ["xmit", "tx"],
  send: ["xmit", "tx", "snd"],
  find: ["lookup", "search"],
  look: ["lookup"],
  search: ["lookup", "find"],
  release: ["put", "free"],
  initialize: ["init", "setup"],
  initialise: ["init", "setup"],
  delete: ["del", "remove", "destroy"],
  remove: ["del", "destroy"],
  buffer: ["buf"],
  message: ["msg"],
  packet: ["pkt", "skb"],
  socket: ["sock", "sk"],
  device: ["dev"],
  memory: ["mem"],
  interrupt: ["irq", "intr"],
  register: ["reg"],
  address: ["addr"],
  connection: ["conn"],
  connect: ["conn"],
  request: ["req"],
  response: ["resp"],
  configuration: ["cfg", "conf", "config"],
  length: ["len"],
  error: ["err"],
  schedule: ["sched"],
  network: ["net", "netif"],
  transaction: ["txn", "handle"],
  synchronize: ["sync"],
  context: ["ctx"],
  argument: ["arg"],
  attribute: ["attr"],
  directory: ["dir"],
  number: ["num", "nr"],
  pointer: ["ptr"],
  reference: ["ref"],
  source: ["src"],
  destination: ["dst", "dest"],
  command: ["cmd"],
  queue: ["q"],
  allocate: ["alloc"],
  free: ["kfree", "release"],
  information: ["info"],
  manager: ["mgr"],
  timer: ["tmr"],
  statistics: ["stats"],
  asynchronous: ["async", "aio"],
  synchronous: ["sync"],
  current: ["cur", "curr"],
  previous: ["prev"],
  temporary: ["tmp", "temp"],
  parameter: ["param"],
  string: ["str"],
  position: ["pos"],
  environment: ["env"],
  extension: ["ext"],
  function: ["func", "fn"],
  callback: ["cb"],
  object: ["obj"],
  index: ["idx"],
  descriptor: ["desc"],
  expression: ["expr"],
  template: ["tmpl", "tpl"],
  dictionary: ["dict"],
  iterator: ["iter"],
  authentication: ["auth"],
  operation: ["op"],
  instance: ["inst"],
  implementation: ["impl"],
  calculate: ["calc"],
  utility: ["util"],
  keyboard: ["kbd"],
  control: ["ctrl", "ctl", "ctlr"],
  process: ["proc"],
  sequence: ["seq"],
  value: ["val"],
  count: ["cnt"],
  signal: ["sig"],
  maximum: ["max"],
  minimum: ["min"],
  package: ["pkg"],
  library: ["lib"],
  database: ["db"],
};

const FORMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(SPELLINGS).map(([word, short]) => [stem(word), [...new Set(short.map(stem))].filter((s) => s !== stem(word))]),
);

/** The other spellings of a (stemmed) question term; empty when code has no habit for it. */
export function termForms(term: string): readonly string[] {
  return FORMS.get(term) ?? [];
}
