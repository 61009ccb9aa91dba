/**
 * Exact decimal arithmetic with the semantics of github.com/shopspring/decimal v1.3.1, as the relrank reference
 * uses it (specs/relrank.md, "Decimal semantics"):
 * - `add`, `sub` and `mul` are exact;
 * - `div(d, prec)` is the exact quotient rounded to `prec` fractional digits, half away from zero (`DivRound`);
 * - `round(k)` rounds half away from zero to k fractional digits (`Round`);
 * - `fromFloat(f)` is the shortest decimal that round-trips to f (`NewFromFloat`);
 * - `toString()` is the exact value, trailing zeros trimmed, no exponent, `0` for zero (`String`).
 *
 * A value is `v / 10^s` with a BigInt `v` and a scale `s >= 0`. Values are never normalised (trailing zeros are
 * kept) because `toString` and `cmp` depend only on the value.
 */

/** Thrown by `div` on a zero divisor: the reference panics with `decimal division by 0`. */
export class DecimalDivisionByZero extends Error {
	override readonly name = 'DecimalDivisionByZero';
	constructor() {
		super('decimal division by 0');
	}
}

const pow10Cache: bigint[] = [1n];

/** 10^n as a BigInt, cached (n >= 0). */
function pow10(n: number): bigint {
	let cached = pow10Cache[n];
	if (cached !== undefined) return cached;
	for (let i = pow10Cache.length; i <= n; i++) {
		cached = pow10Cache[i - 1]! * 10n;
		pow10Cache.push(cached);
	}
	return pow10Cache[n]!;
}

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export class Decimal {
	static readonly ZERO = new Decimal(0n, 0);
	static readonly ONE = new Decimal(1n, 0);

	private constructor(
		/** Unscaled value. */
		readonly v: bigint,
		/** Number of fractional digits, >= 0. */
		readonly s: number,
	) {}

	/** `v * 10^-scale`; a negative scale multiplies by a power of ten. */
	static of(v: bigint, scale = 0): Decimal {
		return scale >= 0 ? new Decimal(v, scale) : new Decimal(v * pow10(-scale), 0);
	}

	static fromInt(n: number | bigint): Decimal {
		if (typeof n === 'number' && !Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
		return new Decimal(BigInt(n), 0);
	}

	/**
	 * Parse a decimal literal: optional sign, digits with at most one point, optional exponent (`1.5`, `-.5`, `2e3`).
	 * This is the subset of shopspring's `NewFromString` that round-trips; returns undefined when it does not parse.
	 */
	static parse(text: string): Decimal | undefined {
		const m = DECIMAL_RE.exec(text);
		if (!m) return undefined;
		const [, sign, intPart = '', fracPart = '', expPart] = m;
		if (intPart === '' && fracPart === '') return undefined;
		const exp = expPart === undefined ? 0 : Number(expPart);
		if (!Number.isSafeInteger(exp) || Math.abs(exp) > 100_000) return undefined;
		const digits = BigInt(intPart + fracPart);
		return Decimal.of(sign === '-' ? -digits : digits, fracPart.length - exp);
	}

	/** Like `parse`, but throws on bad input. */
	static fromString(text: string): Decimal {
		const d = Decimal.parse(text);
		if (d === undefined) throw new SyntaxError(`can't convert ${text} to decimal`);
		return d;
	}

	/**
	 * shopspring `NewFromFloat`: the shortest decimal that round-trips to `f`. ECMAScript's Number-to-String is that
	 * shortest round-trip form (possibly with an exponent, which `parse` reads), so the value is the same.
	 */
	static fromFloat(f: number): Decimal {
		if (!Number.isFinite(f)) {
			throw new RangeError(`Cannot create a Decimal from ${Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf'}`);
		}
		return Decimal.fromString(String(f));
	}

	isZero(): boolean {
		return this.v === 0n;
	}

	sign(): -1 | 0 | 1 {
		return this.v === 0n ? 0 : this.v < 0n ? -1 : 1;
	}

	neg(): Decimal {
		return new Decimal(-this.v, this.s);
	}

	add(o: Decimal): Decimal {
		if (this.s === o.s) return new Decimal(this.v + o.v, this.s);
		if (this.s > o.s) return new Decimal(this.v + o.v * pow10(this.s - o.s), this.s);
		return new Decimal(this.v * pow10(o.s - this.s) + o.v, o.s);
	}

	sub(o: Decimal): Decimal {
		return this.add(o.neg());
	}

	mul(o: Decimal): Decimal {
		return new Decimal(this.v * o.v, this.s + o.s);
	}

	/**
	 * shopspring `DivRound(o, prec)` (`Div` with `DivisionPrecision = prec`): the exact quotient rounded to `prec`
	 * fractional digits, half away from zero. A negative `prec` rounds to tens, hundreds, ...
	 */
	div(o: Decimal, prec: number): Decimal {
		if (o.v === 0n) throw new DecimalDivisionByZero();
		// q = (this / o) * 10^prec = this.v * 10^(o.s + prec - this.s) / o.v
		const e = o.s + prec - this.s;
		const num = e >= 0 ? this.v * pow10(e) : this.v;
		const den = e >= 0 ? o.v : o.v * pow10(-e);
		return Decimal.of(roundedQuotient(num, den), prec);
	}

	/** shopspring `Round(places)`: half away from zero. */
	round(places: number): Decimal {
		if (places >= this.s) return this;
		return Decimal.of(roundedQuotient(this.v, pow10(this.s - places)), places);
	}

	cmp(o: Decimal): -1 | 0 | 1 {
		let a = this.v;
		let b = o.v;
		if (this.s > o.s) b *= pow10(this.s - o.s);
		else if (o.s > this.s) a *= pow10(o.s - this.s);
		return a < b ? -1 : a > b ? 1 : 0;
	}

	eq(o: Decimal): boolean {
		return this.cmp(o) === 0;
	}

	/** shopspring `String()`: exact, no exponent, trailing fractional zeros trimmed, `0` for zero. */
	toString(): string {
		if (this.v === 0n) return '0';
		const negative = this.v < 0n;
		let digits = (negative ? -this.v : this.v).toString();
		let out: string;
		if (this.s === 0) {
			out = digits;
		} else {
			if (digits.length <= this.s) digits = '0'.repeat(this.s - digits.length + 1) + digits;
			const intPart = digits.slice(0, digits.length - this.s);
			const fracPart = digits.slice(digits.length - this.s).replace(/0+$/, '');
			out = fracPart === '' ? intPart : `${intPart}.${fracPart}`;
		}
		return negative ? `-${out}` : out;
	}

	/** Nearest float64 (through the decimal string, which JS parses correctly rounded). */
	toNumber(): number {
		return Number(this.toString());
	}
}

/** num / den rounded to an integer, half away from zero. */
function roundedQuotient(num: bigint, den: bigint): bigint {
	const q = num / den; // truncates toward zero
	const r = num - q * den;
	if (r === 0n) return q;
	const r2 = (r < 0n ? -r : r) * 2n;
	const absDen = den < 0n ? -den : den;
	if (r2 < absDen) return q;
	return num < 0n !== den < 0n ? q - 1n : q + 1n;
}
