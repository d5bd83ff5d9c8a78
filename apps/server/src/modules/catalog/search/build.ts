import type { RawQuery } from "../../../db/raw";
import {
  FACTS_COLUMNS,
  SEARCH_TEXT_COLUMNS,
  readCategories,
  readLinks,
  type CategoryRow,
  type FactsRow,
  type LinkRow,
  type ProductRow,
} from "./catalogue-rows";
import { placesOf, trigrams } from "./words";

/** The words' part of a search index as built from the whole catalogue (search-index.ts). */
export interface BuiltIndex {
  /** Product ids by position, in id order. */
  ids: Int32Array;
  /** Words by number, and the numbers sorted by word. */
  vocabulary: string[];
  sortedWords: Int32Array;
  /** Postings of word w: postings[starts[w]..starts[w+1]), each position << 3 | places. */
  starts: Int32Array;
  postings: Int32Array;
  /** trigram → numbers of the words (of 2 characters or more) that have it; how many each word has. */
  trigramWords: Map<string, Int32Array>;
  trigramCounts: Uint8Array;
}

/** How often the build lets requests in while it tokenises (it runs in the request thread). */
const BUILD_SLICE = 2_000;

/**
 * Products read per statement. The build holds one batch's texts at a time: read whole, at 100k products, the
 * texts took ~230 MB of heap and as much again of the driver's buffers, and the process kept most of that
 * memory after the build.
 */
const READ_BATCH = 5_000;

/** Pass 1's buffer to start with, in entries (32 MB: the smallest the C allocator always maps apart). */
const PAIRS_START = 8 * 1024 * 1024;

/**
 * Reads the live catalogue and indexes its words; each product's facts and the categories come back too.
 * Batches are separate statements, not one snapshot: a product written meanwhile is in the changes the live
 * index applies after the build (live-index.ts), as any write during a one-statement read was.
 */
export async function indexCatalogue(
  run: RawQuery,
  { readBatch = READ_BATCH, pairsStart = PAIRS_START } = {},
): Promise<{
  built: BuiltIndex;
  products: FactsRow[];
  categories: CategoryRow[];
  links: LinkRow[];
}> {
  const [categories, links] = await Promise.all([readCategories(run), readLinks(run)]);
  const wordNumbers = new Map<string, number>();
  const vocabulary: string[] = [];
  const number = (word: string) => {
    let found = wordNumbers.get(word);
    if (found === undefined) {
      found = vocabulary.length;
      wordNumbers.set(word, found);
      vocabulary.push(word);
    }
    return found;
  };
  // Pass 1, batch by batch in id order: each product's words with their places, and how many products have
  // each word.
  const ids: number[] = [];
  const facts: FactsRow[] = [];
  // Every product's word numbers and places end to end, and where each product's ends. One buffer that
  // doubles, not an array per product: 100k small arrays came from the C allocator among longer-lived memory,
  // and the space they freed stayed in the process; 32 MB and more the system maps apart, only the pages
  // written, and takes back once collected.
  let pairs = new Int32Array(pairsStart);
  let used = 0;
  const ends: number[] = [];
  const counts: number[] = [];
  for (let after = 0; ;) {
    const batch = await run<ProductRow>(
      "search_index_products",
      `select id, ${SEARCH_TEXT_COLUMNS}, ${FACTS_COLUMNS}
     from products p where deleted_at is null and id > $1 order by id limit $2`,
      [after, readBatch],
    );
    for (let i = 0; i < batch.length; i++) {
      if (i % BUILD_SLICE === BUILD_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
      const row = batch[i]!;
      const places = placesOf(row, number);
      while (used + places.size * 2 > pairs.length) {
        const grown = new Int32Array(pairs.length * 2);
        grown.set(pairs.subarray(0, used));
        pairs = grown;
      }
      for (const [n, place] of places) {
        pairs[used++] = n;
        pairs[used++] = place;
        counts[n] = (counts[n] ?? 0) + 1;
      }
      ends.push(used);
      ids.push(row.id);
      const { id, priceCents, shippingCostCents, stock, ratingSum, ratingCount } = row;
      facts.push({ id, priceCents, shippingCostCents, stock, ratingSum, ratingCount });
    }
    if (batch.length < readBatch) break;
    after = batch[batch.length - 1]!.id;
  }
  // Pass 2: the postings, word after word, each in position (so id) order.
  const starts = new Int32Array(vocabulary.length + 1);
  for (let n = 0; n < vocabulary.length; n++) starts[n + 1] = starts[n]! + (counts[n] ?? 0);
  const postings = new Int32Array(starts[vocabulary.length]!);
  const filled = starts.slice(0, vocabulary.length);
  let from = 0;
  ends.forEach((end, position) => {
    for (let i = from; i < end; i += 2) postings[filled[pairs[i]!]!++] = (position << 3) | pairs[i + 1]!;
    from = end;
  });

  const sortedWords = Int32Array.from(vocabulary.keys()).sort((a, b) =>
    vocabulary[a]! < vocabulary[b]! ? -1 : vocabulary[a]! > vocabulary[b]! ? 1 : 0,
  );
  const trigramLists = new Map<string, number[]>();
  const trigramCounts = new Uint8Array(vocabulary.length);
  vocabulary.forEach((word, n) => {
    if (word.length < 2) return;
    const own = trigrams(word);
    trigramCounts[n] = own.size;
    for (const trigram of own) {
      const list = trigramLists.get(trigram);
      if (list) list.push(n);
      else trigramLists.set(trigram, [n]);
    }
  });
  // Typed arrays: the collector doesn't walk them, which keeps its pauses short beside a large index.
  const trigramWords = new Map([...trigramLists].map(([trigram, list]) => [trigram, Int32Array.from(list)]));
  return {
    built: {
      ids: Int32Array.from(ids),
      vocabulary,
      sortedWords,
      starts,
      postings,
      trigramWords,
      trigramCounts,
    },
    products: facts,
    categories,
    links,
  };
}
