import { DESCRIPTION, NAME, TITLE } from "./search-scoring";
import type { TextRow } from "./search-index-rows";
import { words } from "./search-words";

/** Small pieces the search index is built and updated with. */

/** A product's words with the places each is found in, by word number (`number` numbers a word). */
export function placesOf(row: TextRow, number: (word: string) => number): Map<number, number> {
  const places = new Map<number, number>();
  for (const [text, place] of [
    [row.title, TITLE],
    [row.name, NAME],
    [row.description, DESCRIPTION],
  ] as const) {
    for (const word of words(text)) {
      const n = number(word.slice(0, 40));
      places.set(n, (places.get(n) ?? 0) | place);
    }
  }
  return places;
}

/** Where `value` is, or would go, in the sorted `array`. */
export function lowerBound(array: Int32Array, value: number, end = array.length): number {
  let low = 0;
  let high = end;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (array[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A copy of a typed array with room for `capacity` entries. */
export function grown<T extends Int32Array | Uint8Array | Float64Array>(array: T, capacity: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(capacity);
  bigger.set(array);
  return bigger;
}
