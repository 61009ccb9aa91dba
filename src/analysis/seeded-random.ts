/**
 * A seeded pseudo-random generator for the championship forecast: pure code has no Math.random, and a
 * forecast must give the same numbers for the same seed. xoshiro128** 1.1 (Blackman & Vigna,
 * https://prng.di.unimi.it/xoshiro128starstar.c), 32-bit words through Math.imul; the four words of state are
 * filled from the seed by splitmix32, as the authors recommend, so that nearby seeds give unrelated streams.
 */

export interface SeededRandom {
	/** A uniform number in the open interval (0, 1): never 0, so that -log(u) is always finite. */
	uniform(): number;
}

const TWO_POW_MINUS_32 = 2 ** -32;

/** splitmix32 step: one well-mixed 32-bit word per call from a Weyl sequence. */
function splitmix32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x9e3779b9) >>> 0;
		let z = state;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
		return (z ^ (z >>> 16)) >>> 0;
	};
}

/**
 * The four state words for `seed` (any integer; only its low 32 bits are used), for code that inlines the step on
 * local copies (forecast.ts).
 */
export function seedState(seed: number): Uint32Array {
	const mix = splitmix32(seed);
	const state = Uint32Array.of(mix(), mix(), mix(), mix());
	// The all-zero state is the one xoshiro cannot leave; splitmix32 cannot produce four zero words in a row, but
	// guard anyway.
	if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1;
	return state;
}

/** The generator for `seed`. */
export function createSeededRandom(seed: number): SeededRandom {
	const state = seedState(seed);
	let s0 = state[0]! | 0;
	let s1 = state[1]! | 0;
	let s2 = state[2]! | 0;
	let s3 = state[3]! | 0;
	return {
		uniform() {
			const x = Math.imul(s1, 5);
			const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
			const t = s1 << 9;
			s2 ^= s0;
			s3 ^= s1;
			s1 ^= s2;
			s0 ^= s3;
			s2 ^= t;
			s3 = (s3 << 11) | (s3 >>> 21);
			// (k + 0.5) / 2^32 for k in 0..2^32-1: strictly inside (0, 1).
			return (result + 0.5) * TWO_POW_MINUS_32;
		},
	};
}
