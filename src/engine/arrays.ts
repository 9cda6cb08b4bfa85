// In-place array edits for hot paths: Array.splice allocates the array of removed items
// on every call.

/** Insert `value` at index i, in place. */
export function insertAt<T>(list: T[], i: number, value: T): void {
  list.push(value);
  for (let j = list.length - 1; j > i; j--) list[j] = list[j - 1]!;
  list[i] = value;
}

/** Remove index i in place, keeping order; a negative index does nothing. */
export function removeAt<T>(list: T[], i: number): void {
  if (i < 0) return;
  for (let j = i + 1; j < list.length; j++) list[j - 1] = list[j]!;
  list.pop();
}

/** Remove `count` items from index i in place, keeping order. */
export function removeRange<T>(list: T[], i: number, count: number): void {
  if (count <= 0) return;
  for (let j = i + count; j < list.length; j++) list[j - count] = list[j]!;
  list.length -= count;
}
