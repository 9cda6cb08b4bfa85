// Seeded pseudo-random numbers carried in the simulation state (never Math.random).
// sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state,
// passes PractRand, and its state is four uint32s that survive structuredClone.

export interface Rng {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** A generator seeded from a number and a name, so each consumer has its own stream. */
export function createRng(seed: number, name = ''): Rng {
  // splitmix32 over the seed and the name's characters spreads similar seeds apart.
  let h = (seed >>> 0) ^ 0x9e3779b9;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x85ebca6b);
  const mix = (): number => {
    h = (h + 0x9e3779b9) | 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  const r: Rng = { a: mix(), b: mix(), c: mix(), d: mix() };
  for (let i = 0; i < 12; i++) nextUint32(r);
  return r;
}

export function nextUint32(r: Rng): number {
  const t = (((r.a + r.b) | 0) + r.d) | 0;
  r.d = (r.d + 1) | 0;
  r.a = r.b ^ (r.b >>> 9);
  r.b = (r.c + (r.c << 3)) | 0;
  r.c = (r.c << 21) | (r.c >>> 11);
  r.c = (r.c + t) | 0;
  return t >>> 0;
}

/** Uniform in [0, 1) with 32 bits of resolution. */
export function nextFloat(r: Rng): number {
  return nextUint32(r) / 4294967296;
}

/** Uniform integer in [0, n) for n up to 2^53, without modulo bias worth noting (53-bit float). */
export function nextInt(r: Rng, n: number): number {
  const hi = nextUint32(r) >>> 5; // 27 bits
  const lo = nextUint32(r) >>> 6; // 26 bits
  const u = (hi * 67108864 + lo) / 9007199254740992; // [0,1) with 53 bits
  return Math.floor(u * n);
}

/** Exponentially distributed with the given mean. */
export function nextExponential(r: Rng, mean: number): number {
  return -mean * Math.log(1 - nextFloat(r));
}
