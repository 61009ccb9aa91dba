import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, DecimalDivisionByZero } from '../../src/ratings/relrank/decimal.js';

const d = (text: string): Decimal => Decimal.fromString(text);

/** round(num/den) half away from zero, written differently from decimal.ts: sign · ⌊(2|num| + |den|) / 2|den|⌋. */
function roundHalfAway(num: bigint, den: bigint): bigint {
	const abs = (x: bigint): bigint => (x < 0n ? -x : x);
	const q = (2n * abs(num) + abs(den)) / (2n * abs(den));
	return num < 0n !== den < 0n ? -q : q;
}

describe('Decimal (shopspring/decimal v1.3.1 semantics)', () => {
	it('String() trims trailing zeros, has no exponent, and prints 0 for zero', () => {
		expect(Decimal.of(1234500n, 4).toString()).toBe('123.45');
		expect(Decimal.of(1000n, 3).toString()).toBe('1');
		expect(Decimal.of(-5n, 3).toString()).toBe('-0.005');
		expect(Decimal.of(0n, 20).toString()).toBe('0');
		expect(d('1e25').toString()).toBe('10000000000000000000000000');
		expect(d('-1.5e-3').toString()).toBe('-0.0015');
	});

	it('rounds division half away from zero (DivRound documentation: 2/3 -> 0.67, -2/3 -> -0.67)', () => {
		expect(d('2').div(d('3'), 2).toString()).toBe('0.67');
		expect(d('-2').div(d('3'), 2).toString()).toBe('-0.67');
		expect(d('1').div(d('8'), 2).toString()).toBe('0.13');
		expect(d('-1').div(d('8'), 2).toString()).toBe('-0.13');
		expect(d('1').div(d('-8'), 2).toString()).toBe('-0.13');
		expect(d('1').div(d('3'), 2).toString()).toBe('0.33');
		// shopspring README: NewFromFloat(2).Div(NewFromFloat(3)) with the default precision 16
		expect(Decimal.fromFloat(2).div(Decimal.fromFloat(3), 16).toString()).toBe('0.6666666666666667');
		expect(d('25').div(d('10'), 0).toString()).toBe('3');
		expect(d('-25').div(d('10'), 0).toString()).toBe('-3');
		expect(d('149').div(d('1'), -2).toString()).toBe('100');
		expect(d('150').div(d('1'), -2).toString()).toBe('200');
	});

	it('throws "decimal division by 0" on a zero divisor', () => {
		expect(() => d('1').div(Decimal.ZERO, 20)).toThrow(DecimalDivisionByZero);
		expect(() => d('1').div(Decimal.of(0n, 5), 20)).toThrow('decimal division by 0');
	});

	it('Round(places) rounds half away from zero (shopspring docs: 5.45 -> 5.5, 545 with -1 -> 550)', () => {
		expect(Decimal.fromFloat(5.45).round(1).toString()).toBe('5.5');
		expect(Decimal.fromFloat(545).round(-1).toString()).toBe('550');
		expect(d('-5.45').round(1).toString()).toBe('-5.5');
		expect(d('2.449').round(2).toString()).toBe('2.45');
		expect(d('2.444').round(2).toString()).toBe('2.44');
		expect(d('7').round(2).toString()).toBe('7');
	});

	it('NewFromFloat is the shortest round-trip decimal of the float64', () => {
		expect(Decimal.fromFloat(0.1).toString()).toBe('0.1');
		expect(Decimal.fromFloat(Math.LN2).toString()).toBe('0.6931471805599453');
		expect(Decimal.fromFloat(1e-7).toString()).toBe('0.0000001');
		expect(Decimal.fromFloat(1.5e21).toString()).toBe('1500000000000000000000');
		expect(() => Decimal.fromFloat(-Infinity)).toThrow('Cannot create a Decimal from -Inf');
	});

	it('add, sub and mul are exact', () => {
		expect(d('0.1').add(d('0.2')).toString()).toBe('0.3');
		expect(d('1.000000000000000000001').sub(d('1')).toString()).toBe('0.000000000000000000001');
		expect(d('1.5').mul(d('-0.25')).toString()).toBe('-0.375');
		expect(d('0.3').mul(d('0.3')).mul(d('0.3')).toString()).toBe('0.027');
	});

	it('property: div equals the exact quotient rounded half away from zero at any precision', () => {
		fc.assert(
			fc.property(
				fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
				fc.integer({ min: 0, max: 25 }),
				fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).filter((x) => x !== 0n),
				fc.integer({ min: 0, max: 25 }),
				fc.integer({ min: -3, max: 30 }),
				(av, as, bv, bs, prec) => {
					const a = Decimal.of(av, as);
					const b = Decimal.of(bv, bs);
					// a/b·10^prec = av·10^bs·10^prec / (bv·10^as)
					const e = bs + prec - as;
					const num = e >= 0 ? av * 10n ** BigInt(e) : av;
					const den = e >= 0 ? bv : bv * 10n ** BigInt(-e);
					expect(a.div(b, prec).eq(Decimal.of(roundHalfAway(num, den), prec))).toBe(true);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('property: toString round-trips through fromString, and cmp agrees with subtraction', () => {
		fc.assert(
			fc.property(
				fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
				fc.integer({ min: 0, max: 30 }),
				fc.bigInt(),
				fc.nat(30),
				(v, s, w, t) => {
					const x = Decimal.of(v, s);
					const y = Decimal.of(w, t);
					expect(Decimal.fromString(x.toString()).eq(x)).toBe(true);
					expect(x.cmp(y)).toBe(x.sub(y).sign());
				},
			),
			{ numRuns: 200 },
		);
	});
});
