import type { BuiltIndex } from "./build";
import { grown } from "./typed-arrays";
import { NEAR_BEST, NEAREST, SIMILARITY_THRESHOLD } from "./scoring";
import { trigrams } from "./words";

/**
 * The catalogue's words for the search index (search-index.ts): each word's number, the numbers sorted by word
 * for exact and prefix lookups, and each word's trigrams for typo corrections. Words only come in (an
 * update adds those of a changed product); a word no product has any more stays until the next build.
 */
export class Vocabulary {
  /** Words by number. */
  private readonly vocabulary: string[];
  /** The numbers sorted by word. */
  private sortedWords: Int32Array;
  /** trigram → numbers of the words (of 2 characters or more) that have it; how many each word has. */
  private readonly trigramWords: Map<string, Int32Array>;
  private trigramCounts: Uint8Array;
  /** Words numbered since the last sortNewWords(), waiting to be sorted in. */
  private readonly unsorted = new Map<string, number>();

  constructor(built: Pick<BuiltIndex, "vocabulary" | "sortedWords" | "trigramWords" | "trigramCounts">) {
    this.vocabulary = built.vocabulary;
    this.sortedWords = built.sortedWords;
    this.trigramWords = built.trigramWords;
    this.trigramCounts = built.trigramCounts;
  }

  /** How many words it holds. */
  get size(): number {
    return this.vocabulary.length;
  }

  /** The word of this number. */
  word(n: number): string {
    return this.vocabulary[n]!;
  }

  /**
   * Numbers words for an update: a known word keeps its number, a new one gets the next. The new ones are
   * found by number lookups only after sortNewWords().
   */
  numbering(): (word: string) => number {
    return (word) => {
      let n = this.numberOf(word) ?? this.unsorted.get(word);
      if (n === undefined) {
        n = this.vocabulary.push(word) - 1;
        this.unsorted.set(word, n);
        this.indexTrigrams(word, n);
      }
      return n;
    };
  }

  /** New words into the sorted vocabulary: each is searched for, the rest copied in runs. */
  sortNewWords() {
    if (this.unsorted.size === 0) return;
    const { vocabulary } = this;
    const numbers = [...this.unsorted.values()].sort((a, b) => (vocabulary[a]! < vocabulary[b]! ? -1 : 1));
    this.unsorted.clear();
    const before = this.sortedWords;
    const after = new Int32Array(before.length + numbers.length);
    let from = 0;
    let to = 0;
    for (const n of numbers) {
      const at = this.firstAtOrAfter(vocabulary[n]!);
      after.set(before.subarray(from, at), to);
      to += at - from;
      from = at;
      after[to++] = n;
    }
    after.set(before.subarray(from), to);
    this.sortedWords = after;
  }

  /** A new word's trigrams, for typo corrections. */
  private indexTrigrams(word: string, n: number) {
    if (n >= this.trigramCounts.length) this.trigramCounts = grown(this.trigramCounts, (n + 1) * 2);
    if (word.length < 2) return;
    const own = trigrams(word);
    this.trigramCounts[n] = own.size;
    for (const trigram of own) {
      const before = this.trigramWords.get(trigram) ?? new Int32Array(0);
      const after = grown(before, before.length + 1);
      after[before.length] = n;
      this.trigramWords.set(trigram, after);
    }
  }

  /** The number of a catalogue word, if it is one. */
  numberOf(word: string): number | undefined {
    const at = this.firstAtOrAfter(word);
    const n = this.sortedWords[at];
    return n !== undefined && this.vocabulary[n] === word ? n : undefined;
  }

  /** Where `word` is, or would be, in the sorted vocabulary. */
  private firstAtOrAfter(word: string): number {
    let low = 0;
    let high = this.sortedWords.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.vocabulary[this.sortedWords[middle]!]! < word) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The numbers of the catalogue words that start with `term`, itself included. */
  prefixed(term: string): number[] {
    const sorted = this.sortedWords;
    const result: number[] = [];
    for (
      let i = this.firstAtOrAfter(term);
      i < sorted.length && this.vocabulary[sorted[i]!]!.startsWith(term);
      i++
    )
      result.push(sorted[i]!);
    return result;
  }

  /**
   * The catalogue words a typo of `term` most likely meant (none that start with it or are its forms), among
   * those some product still has (`isUsed`: words of changed or retired products stay here).
   */
  corrections(term: string, exact: Set<string>, isUsed: (n: number) => boolean): Set<string> {
    const own = trigrams(term);
    const shared = new Map<number, number>();
    for (const trigram of own) {
      for (const word of this.trigramWords.get(trigram) ?? []) shared.set(word, (shared.get(word) ?? 0) + 1);
    }
    const similar: { word: string; similarity: number }[] = [];
    for (const [n, common] of shared) {
      const word = this.vocabulary[n]!;
      const similarity = common / (own.size + this.trigramCounts[n]! - common);
      if (similarity >= SIMILARITY_THRESHOLD && isUsed(n)) similar.push({ word, similarity });
    }
    similar.sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : 1));
    const nearest = similar.slice(0, NEAREST);
    const bestSimilarity = nearest[0]?.similarity ?? 0;
    return new Set(
      nearest
        .filter(({ similarity }) => similarity >= bestSimilarity * NEAR_BEST)
        .map(({ word }) => word)
        .filter((word) => !word.startsWith(term) && !exact.has(word)),
    );
  }
}
