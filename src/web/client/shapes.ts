// What the web view reads from `mesh web`'s JSON API: agents, answers with their traced chain, feed items.

export interface Agent {
  id: string;
  scope: string;
  state: string;
  load: number;
  index_revision: string;
  documents: number;
  symbols: number;
  lines: number;
  endpoint: string;
  host: string;
  scope_paths: string[];
  uptime_hint_ms: number | null;
}
export interface Agents {
  root: string;
  agents: Agent[];
}
export interface ChainStep {
  scope: string;
  symbol: string;
  file_path: string;
  line_start: number;
  line_end: number;
  sha256: string;
  call_site: { file_path: string; line: number; text?: string; bound_at?: { field: string; file_path: string; line: number; text: string }; defines?: true } | null;
}
export interface Answer {
  id: string;
  question?: string;
  outcome?: string;
  confidence?: string;
  query_path?: string[];
  chain?: ChainStep[];
  answer?: string;
  error?: { code: string; message: string };
}
export interface FeedItem {
  id: string;
  question: string;
  outcome: string;
  confidence: string;
  scopes: string[];
  steps: number;
}
