// V8 keeps a field's number representation from the first value stored in it: a field that
// starts as a small integer (0, −1) and later holds a fraction or a value over 2^31 − 1
// (ns times, byte counts) changes representation mid-run. That retires the object's shape
// and throws away the optimised code of every function that read it — at the first
// fractional time, and again when a byte count passes 2 GiB half a million requests in.
// Fields that will hold such numbers are made doubles when their object is made, before any
// code is optimised; the values are unchanged.

/** Store each named field back through NaN, so V8 keeps it as a double from now on. */
export function doubleFields<T extends object>(o: T, ...keys: Array<keyof T>): T {
  const rec = o as Record<keyof T, unknown>;
  for (const k of keys) {
    const v = rec[k];
    rec[k] = NaN;
    rec[k] = v;
  }
  return o;
}
