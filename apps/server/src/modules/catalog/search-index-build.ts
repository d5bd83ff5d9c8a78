import type { RawQuery } from "../../db/raw";
import { placesOf } from "./search-index-parts";
import {
  FACTS_COLUMNS,
  readCategories,
  readLinks,
  type CategoryRow,
  type LinkRow,
  type ProductRow,
} from "./search-index-rows";
import { trigrams } from "./search-words";

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

/** Reads the live catalogue and indexes its words; the rows read come back for the facts and categories. */
export async function indexCatalogue(run: RawQuery): Promise<{
  built: BuiltIndex;
  products: ProductRow[];
  categories: CategoryRow[];
  links: LinkRow[];
}> {
  const [texts, categories, links] = await Promise.all([
    run<ProductRow>(
      "search_index_products",
      `select id, title, name, description, ${FACTS_COLUMNS}
     from products where deleted_at is null order by id`,
      [],
    ),
    readCategories(run),
    readLinks(run),
  ]);
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
  // Pass 1: each product's words with their places, and how many products have each word.
  const productWords: Int32Array[] = [];
  const counts: number[] = [];
  for (let position = 0; position < texts.length; position++) {
    if (position % BUILD_SLICE === BUILD_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
    const places = placesOf(texts[position]!, number);
    const packed = new Int32Array(places.size * 2);
    let i = 0;
    for (const [n, place] of places) {
      packed[i++] = n;
      packed[i++] = place;
      counts[n] = (counts[n] ?? 0) + 1;
    }
    productWords.push(packed);
  }
  // Pass 2: the postings, word after word, each in position (so id) order.
  const starts = new Int32Array(vocabulary.length + 1);
  for (let n = 0; n < vocabulary.length; n++) starts[n + 1] = starts[n]! + (counts[n] ?? 0);
  const postings = new Int32Array(starts[vocabulary.length]!);
  const filled = starts.slice(0, vocabulary.length);
  productWords.forEach((packed, position) => {
    for (let i = 0; i < packed.length; i += 2)
      postings[filled[packed[i]!]!++] = (position << 3) | packed[i + 1]!;
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
      ids: Int32Array.from(texts, (row) => row.id),
      vocabulary,
      sortedWords,
      starts,
      postings,
      trigramWords,
      trigramCounts,
    },
    products: texts,
    categories,
    links,
  };
}
