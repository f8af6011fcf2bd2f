// Keeps the k best (score, doc) pairs seen so far; ties go to the lower document number, so results are stable.

export class TopK {
  readonly docs: number[] = [];
  readonly scores: number[] = [];
  constructor(private readonly k: number) {}

  offer(doc: number, score: number): void {
    if (this.docs.length >= this.k && !this.beats(doc, score, this.k - 1)) return;
    let at = Math.min(this.docs.length, this.k - 1);
    if (this.docs.length < this.k) {
      this.docs.push(doc);
      this.scores.push(score);
      at = this.docs.length - 1;
    }
    while (at > 0 && this.beats(doc, score, at - 1)) {
      this.docs[at] = this.docs[at - 1] as number;
      this.scores[at] = this.scores[at - 1] as number;
      at--;
    }
    this.docs[at] = doc;
    this.scores[at] = score;
  }

  private beats(doc: number, score: number, at: number): boolean {
    const other = this.scores[at] as number;
    return score > other || (score === other && doc < (this.docs[at] as number));
  }
}
