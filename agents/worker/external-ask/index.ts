// Public face of the external ask adapter: an `ask --json` command as a worker's evidence source.
export { askArgv, DEFAULT_ASK_ARGS, questionArgument, type AskArgTemplates } from "./ask-argv.js";
export { ASK_KILL_GRACE_MS, createExternalAsk, DEFAULT_EXTERNAL_ASK_TIMEOUT_MS, MAX_ASK_OUTPUT_BYTES, type AskCallOptions, type ExternalAsk, type ExternalAskOptions } from "./external-ask.js";
export { ExternalAskError, type ExternalAskErrorCode, type ExternalAskFailure } from "./external-ask-error.js";
export { citationsFrom, clampSimilarity, markExternal, overlayIdOf } from "./external-sources.js";
export { externalKnowledge, type ExternalKnowledgeOptions } from "./external-knowledge.js";
