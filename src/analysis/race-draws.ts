import type { Performance } from '../ratings/types.js';
import { ForecastInputError } from './forecast-input-error.js';

/**
 * One simulated race's draws for the championship forecast: each racer's performance sampled from the
 * system's model (types.ts `Performance`) as a key, the larger the better. The hot loop of forecast.ts: typed arrays,
 * nothing allocated per race.
 */

const TWO_POW_MINUS_32 = 2 ** -32;
const TWO_POW_MINUS_31 = 2 ** -31;

const KIND_CODE = { 'exp-longest': 0, 'exp-shortest': 1, 'gamma3-shortest': 2, 'normal-highest': 3 } as const;

/**
 * Each racer's draw as `scale`·(draw) or `mean` + `scale`·Z, oriented so that the larger key wins, with the rate
 * kinds scaled to the best racer so that keys stay in range (probabilities are invariant under a common scale).
 */
export function keyParameters(field: readonly Performance[]): {
	kind: 0 | 1 | 2 | 3;
	mean: Float64Array;
	scale: Float64Array;
} {
	const n = field.length;
	const kind = field[0]!.kind;
	const mean = new Float64Array(n);
	const scale = new Float64Array(n);
	for (let j = 0; j < n; j++) {
		const p = field[j]!;
		if (p.kind !== kind) throw new ForecastInputError(`racer ${j}: mixed performance kinds (${kind}, ${p.kind})`);
		if (p.kind === 'normal-highest') {
			if (!(Number.isFinite(p.mean) && Number.isFinite(p.sd) && p.sd > 0)) {
				throw new ForecastInputError(`racer ${j}: mean and sd must be finite and sd > 0`);
			}
			mean[j] = p.mean;
			scale[j] = p.sd;
		} else {
			if (!(Number.isFinite(p.rate) && p.rate > 0)) {
				throw new ForecastInputError(`racer ${j}: rate must be finite and > 0, got ${p.rate}`);
			}
			scale[j] = p.rate;
		}
	}
	if (kind !== 'normal-highest') {
		// exp-longest: key = (λ_min/λ)·E, the longest time. Shortest-time kinds: key = (rate/rate_max)/T', larger
		// is faster, T' the unscaled time (E or E1+E2+E3).
		let best = kind === 'exp-longest' ? Infinity : 0;
		for (let j = 0; j < n; j++) best = kind === 'exp-longest' ? Math.min(best, scale[j]!) : Math.max(best, scale[j]!);
		for (let j = 0; j < n; j++) scale[j] = kind === 'exp-longest' ? best / scale[j]! : scale[j]! / best;
	}
	return { kind: KIND_CODE[kind], mean, scale };
}

/**
 * One race's keys, the larger the better. The xoshiro128** step (seeded-random.ts) is inlined on local copies of
 * the state: through a closure call per draw the forecast ran 2x slower. Returns the unused second normal of a pair.
 */
export function fillKeys(
	kind: 0 | 1 | 2 | 3,
	n: number,
	mean: Float64Array,
	scale: Float64Array,
	key: Float64Array,
	state: Uint32Array,
	spare: number,
): number {
	let s0 = state[0]! | 0;
	let s1 = state[1]! | 0;
	let s2 = state[2]! | 0;
	let s3 = state[3]! | 0;
	if (kind === 3) {
		// Normals in pairs, both used: one log and one sqrt per two racers.
		for (let j = 0; j < n; j++) {
			if (spare === spare) {
				key[j] = mean[j]! + scale[j]! * spare;
				spare = NaN;
				continue;
			}
			// Marsaglia's polar method: a point uniform in the unit disc (78.5% of the square's points), no trig.
			let p: number;
			let q: number;
			let w: number;
			do {
				let x = Math.imul(s1, 5);
				const a = Math.imul((x << 7) | (x >>> 25), 9);
				let t = s1 << 9;
				s2 ^= s0;
				s3 ^= s1;
				s1 ^= s2;
				s0 ^= s3;
				s2 ^= t;
				s3 = (s3 << 11) | (s3 >>> 21);
				x = Math.imul(s1, 5);
				const b = Math.imul((x << 7) | (x >>> 25), 9);
				t = s1 << 9;
				s2 ^= s0;
				s3 ^= s1;
				s1 ^= s2;
				s0 ^= s3;
				s2 ^= t;
				s3 = (s3 << 11) | (s3 >>> 21);
				// Signed 32-bit words to (-1, 1).
				p = (a + 0.5) * TWO_POW_MINUS_31;
				q = (b + 0.5) * TWO_POW_MINUS_31;
				w = p * p + q * q;
			} while (w >= 1);
			const f = Math.sqrt((-2 * Math.log(w)) / w);
			key[j] = mean[j]! + scale[j]! * p * f;
			spare = q * f;
		}
	} else {
		const draws = kind === 2 ? 3 : 1;
		for (let j = 0; j < n; j++) {
			// u: the product of `draws` uniforms (gamma3: E1 + E2 + E3 = -log(u1·u2·u3)).
			let u = 1;
			for (let d = 0; d < draws; d++) {
				const x = Math.imul(s1, 5);
				const out = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
				const t = s1 << 9;
				s2 ^= s0;
				s3 ^= s1;
				s1 ^= s2;
				s0 ^= s3;
				s2 ^= t;
				s3 = (s3 << 11) | (s3 >>> 21);
				u *= (out + 0.5) * TWO_POW_MINUS_32;
			}
			const e = -Math.log(u);
			key[j] = kind === 0 ? e * scale[j]! : scale[j]! / e;
		}
	}
	state[0] = s0;
	state[1] = s1;
	state[2] = s2;
	state[3] = s3;
	return spare;
}
