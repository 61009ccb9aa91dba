/**
 * What ran in the bot's longest event-loop blocks. The bot's event-loop log (PITWALL_EVENT_LOOP_LOG,
 * src/event-loop-log.ts) gives each interval's longest block as a window of the monotonic clock (`blockUs`); a CPU
 * profile of the same process (node --cpu-prof) stamps its samples with that clock. For the longest blocks this prints
 * the functions the samples inside each window were in, and the innermost frames of our own code that called them.
 * A profile sample is taken every --cpu-prof-interval µs (1000 by default; 250 shows short blocks better).
 *
 *   REAL_BOT_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof --cpu-prof-interval=250" \
 *     REAL_BOT_LOOP_COPY=/tmp/loop.jsonl npx tsx bench/real-bot.ts
 *   npx tsx bench/block-causes.ts /tmp/loop.jsonl /tmp/prof/CPU.*.0.001.cpuprofile [blocks to show, 5]
 *
 * The profile of the main thread is the one numbered 0 (the others are worker threads). Samples of "(idle)" inside a
 * block mean the windows and the samples do not line up (a profile of another process, or of a worker thread).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
	readonly id: number;
	readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
	readonly children?: readonly number[];
}

interface Profile {
	readonly nodes: readonly ProfileNode[];
	readonly startTime: number;
	readonly samples: readonly number[];
	readonly timeDeltas: readonly number[];
}

interface LoopLine {
	readonly t: number;
	readonly maxMs: number;
	readonly gcMs: number;
	readonly blockUs?: readonly [number, number];
}

const OURS = /\/(src|commands|dist)\//;

function frameName(node: ProfileNode): string {
	const { functionName, url, lineNumber } = node.callFrame;
	const file = url.split('/').pop() ?? '';
	return file === '' ? functionName || '(anonymous)' : `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

function top(counts: Map<string, number>, n: number): [string, number][] {
	return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n);
}

function main(): void {
	const [loopFile, profileFile, shown = '5'] = process.argv.slice(2);
	if (loopFile === undefined || profileFile === undefined) {
		console.error('usage: npx tsx bench/block-causes.ts <event-loop.jsonl> <main thread .cpuprofile> [blocks]');
		process.exit(2);
	}
	const lines = readFileSync(loopFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as LoopLine)
		.filter((line) => line.blockUs !== undefined);
	const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const stackOf = (id: number): ProfileNode[] => {
		const stack: ProfileNode[] = [];
		for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at)!);
		return stack;
	};
	const times: number[] = [];
	let time = profile.startTime;
	for (const delta of profile.timeDeltas) times.push((time += delta));

	const longest = [...lines].sort((a, b) => b.maxMs - a.maxMs).slice(0, Number(shown));
	for (const line of longest) {
		const [from, to] = line.blockUs!;
		const self = new Map<string, number>();
		const ours = new Map<string, number>();
		let samples = 0;
		profile.samples.forEach((id, i) => {
			if (times[i]! < from || times[i]! > to) return;
			samples++;
			const stack = stackOf(id);
			const name = frameName(stack[0]!);
			self.set(name, (self.get(name) ?? 0) + 1);
			const path = stack
				.filter((node) => OURS.test(node.callFrame.url))
				.slice(0, 3)
				.map(frameName)
				.join(' ← ');
			ours.set(path || '(no frame of ours)', (ours.get(path || '(no frame of ours)') ?? 0) + 1);
		});
		const at = new Date(line.t).toISOString().slice(11, 23);
		console.log(
			`\n${line.maxMs.toFixed(1)} ms block (GC pause ${line.gcMs.toFixed(1)} ms) in the interval ending ${at}: ${samples} samples`,
		);
		for (const [name, n] of top(self, 6)) console.log(`   ${String(n).padStart(4)}  in ${name}`);
		for (const [path, n] of top(ours, 6)) console.log(`   ${String(n).padStart(4)}  from ${path}`);
	}
}

main();
