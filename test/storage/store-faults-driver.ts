import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { StoreSpec } from './store-spec.js';

/** One answer of store-faults-child.ts. */
export interface ChildAnswer {
	readonly ok: boolean;
	readonly seq?: number;
	readonly players?: [string, number][];
	readonly logged?: string[];
	readonly error?: string;
	readonly message?: string;
	readonly ms: number;
}

export interface FaultChild {
	/** The seq of the league once its first races are stored. */
	readonly ready: number;
	/** Sends one command; rejects naming the exit code or signal when the child dies instead of answering. */
	ask(command: 'write' | 'read' | 'fresh' | 'logged' | 'close'): Promise<ChildAnswer>;
	stop(): Promise<void>;
}

const child = fileURLToPath(new URL('./store-faults-child.ts', import.meta.url));

/** Starts store-faults-child.ts on `spec` with `races` races submitted first. */
export async function startFaultChild(spec: StoreSpec, races: number): Promise<FaultChild> {
	const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify(spec), String(races)], {
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let stderr = '';
	proc.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
	const lines = createInterface({ input: proc.stdout! })[Symbol.asyncIterator]();
	const exited = new Promise<string>((resolve) =>
		proc.once('exit', (code, signal) => resolve(`the child exited (code ${code}, signal ${signal}): ${stderr.trim()}`)),
	);
	const nextLine = async (): Promise<string> => {
		const line = await Promise.race([lines.next(), exited]);
		if (typeof line === 'string') throw new Error(line);
		if (line.done === true) throw new Error(await exited);
		return line.value;
	};
	const first = await nextLine();
	const ready = /^ready (\d+)$/.exec(first);
	if (ready === null) throw new Error(`the child said ${first}`);
	return {
		ready: Number(ready[1]),
		async ask(command) {
			proc.stdin!.write(`${command}\n`);
			return JSON.parse(await nextLine()) as ChildAnswer;
		},
		async stop() {
			if (proc.exitCode === null && proc.signalCode === null) {
				proc.stdin!.end();
				proc.kill('SIGKILL');
				await exited;
			}
		},
	};
}
