// Bounded captures of a child's output: the last bytes (for logs and error messages) or the first
// bytes (for a printed result), so a chatty or hostile command cannot exhaust the worker's memory.

/** The last `maxBytes` bytes of a stream. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = 0;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.maxBytes) {
      const first = this.chunks[0];
      if (first === undefined) break;
      const excess = this.bytes - this.maxBytes;
      const cut = Math.min(excess, first.length);
      if (cut === first.length) this.chunks.shift();
      else this.chunks[0] = first.subarray(cut);
      this.bytes -= cut;
      this.dropped += cut;
    }
  }

  /** Bytes dropped from the front so far. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept bytes as UTF-8; a character cut in half at the front is skipped, not garbled. */
  text(): string {
    const buffer = Buffer.concat(this.chunks);
    let start = 0;
    // UTF-8 continuation bytes are 10xxxxxx; skip them only where the front was cut.
    if (this.dropped > 0) while (start < buffer.length && ((buffer[start] ?? 0) & 0xc0) === 0x80) start++;
    return buffer.subarray(start).toString("utf8");
  }
}

/** The first `maxBytes` bytes of a stream; `push` returns false once more than that arrived. */
export class OutputHead {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private overflowed = false;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): boolean {
    if (this.overflowed) return false;
    if (this.bytes + chunk.length > this.maxBytes) {
      this.overflowed = true;
      return false;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    return true;
  }

  get overflow(): boolean {
    return this.overflowed;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
