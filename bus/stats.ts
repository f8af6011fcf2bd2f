// Counters of a node: frames, NACKs by code, retries, duplicates. Cheap enough for the hot path.
export class NodeStats {
  private readonly counters = new Map<string, number>();

  count(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  get(name: string): number {
    return this.counters.get(name) ?? 0;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counters].sort(([a], [b]) => a.localeCompare(b)));
  }
}
