/** The typed arrays the search index keeps its postings in: search them, and grow them. */

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
