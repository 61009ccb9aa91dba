/** Timing helpers shared by the benchmarks: warm-up, then the median of repeated runs, in milliseconds. */
export function medianMs(
	run: () => unknown,
	{ warmup = 3, runs = 15 }: { warmup?: number; runs?: number } = {},
): number {
	for (let i = 0; i < warmup; i++) run();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = process.hrtime.bigint();
		run();
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)]!;
}

export function fmtMs(ms: number): string {
	return ms < 1 ? `${ms.toFixed(4)} ms` : `${ms.toFixed(2)} ms`;
}
