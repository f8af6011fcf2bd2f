// Public face of topology/: the scope graph, its derivation from code, overrides, path finding, renderings.
export {
  EDGE_KINDS,
  MAX_EDGE_EXAMPLES,
  ScopeGraph,
  checkScopeName,
  compareText,
  type Direction,
  type EdgeKind,
  type KindCounts,
  type MetadataValue,
  type ReferenceKind,
  type ScopeEdge,
  type ScopeMetadata,
  type ScopeNode,
} from "./scope-graph.js";
export { ScopeGraphBuilder, type ReferenceInput } from "./scope-graph-builder.js";
export {
  deriveScopeGraph,
  type AmbiguityPolicy,
  type CodeReference,
  type DeriveOptions,
  type DeriveStats,
  type DerivedGraph,
  type ScopeFacts,
  type UnresolvedReason,
  type UnresolvedReference,
} from "./derive-graph.js";
export { DEFAULT_INCLUDE_ROOTS } from "./resolve-reference.js";
export {
  INLINE_OVERRIDES_SOURCE,
  applyOverrides,
  parseOverrides,
  parseOverridesValue,
  readOverridesFile,
  type OverrideAdd,
  type OverrideRemove,
  type OverrideReport,
  type Overrides,
} from "./overrides.js";
export {
  DEFAULT_MAX_HOPS,
  MAX_ALTERNATIVE_PATHS,
  findAlternativePaths,
  findQueryPath,
  type AlternativePathsResult,
  type PathFailure,
  type PathOptions,
  type QueryPath,
  type QueryPathResult,
} from "./find-path.js";
export type { PathDirection } from "./shortest-path.js";
export {
  RENDER_FORMATS,
  countsLabel,
  renderDot,
  renderGraph,
  renderJson,
  renderMermaid,
  renderText,
  type RenderFormat,
  type RenderOptions,
} from "./render.js";
export { GRAPH_JSON_FORMAT, GRAPH_JSON_VERSION, parseGraphJson, toGraphJson, type GraphJson } from "./graph-json.js";
export {
  OverrideFileError,
  TopologyError,
  TopologyInputError,
  type TopologyErrorCode,
} from "./errors.js";
