/**
 * Graceful shutdown on SIGTERM / SIGINT. What the process opened registers how to close it, in
 * order of opening; a signal closes them in reverse order (the scheduler before the Discord client, the client before
 * the store), logs "stopped" and exits 0. A step that fails is logged and the others still run (exit 1). A shutdown
 * that hangs is cut short after `timeoutMs` (exit 1), and so is one interrupted by a second signal (exit 1).
 *
 * The same signal often arrives twice at once: a terminal's Ctrl-C reaches npm and the bot (one process group), and
 * npm forwards it to the bot again; systemd (KillMode=control-group) signals every process of the unit, npm included.
 * So a repeat within `repeatGraceMs` of the first is that same request, not an impatient second one.
 */
import type { Logger } from './logger.js';

export interface ShutdownOptions {
	readonly log: Logger;
	/** The signals that stop the process. */
	readonly signals?: readonly NodeJS.Signals[];
	/** Longest a graceful shutdown may take before the process exits anyway. */
	readonly timeoutMs?: number;
	/** A repeated signal within this time of the first is the same request (see above). */
	readonly repeatGraceMs?: number;
	/** The process to listen on and exit (tests pass a stand-in). */
	readonly process?: Pick<NodeJS.EventEmitter, 'on' | 'off'> & { exit(code: number): void };
	/** The clock (tests pass a stand-in). */
	readonly now?: () => number;
}

export interface Shutdown {
	/** Registers a step (its promise, if it returns one, is awaited); steps run in reverse order of registration. */
	add(name: string, close: () => unknown): void;
	/** Shuts down as a signal does; resolves once the process was told to exit. */
	run(reason: string): Promise<void>;
	/** Stops listening for signals (tests). */
	dispose(): void;
}

export const SHUTDOWN_TIMEOUT_MS = 10_000;

export function handleShutdownSignals(options: ShutdownOptions): Shutdown {
	const { log } = options;
	const target = options.process ?? process;
	const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
	const timeoutMs = options.timeoutMs ?? SHUTDOWN_TIMEOUT_MS;
	const repeatGraceMs = options.repeatGraceMs ?? 1_000;
	const now = options.now ?? (() => performance.now());
	const steps: { readonly name: string; readonly close: () => unknown }[] = [];
	let startedAt: number | undefined;
	let exited = false;

	const exit = (code: number) => {
		if (exited) return;
		exited = true;
		target.exit(code);
	};

	async function run(reason: string): Promise<void> {
		startedAt = now();
		log.info({ reason }, 'shutting down');
		const timer = setTimeout(() => {
			log.error({ timeoutMs }, 'shutdown took too long: exiting without finishing it');
			exit(1);
		}, timeoutMs);
		timer.unref();
		let failed = false;
		for (const step of [...steps].reverse()) {
			try {
				await step.close();
			} catch (error) {
				failed = true;
				log.error({ err: error, step: step.name }, 'shutdown step failed');
			}
		}
		clearTimeout(timer);
		if (exited) return;
		log.info({ reason }, 'stopped');
		exit(failed ? 1 : 0);
	}

	const onSignal = (signal: NodeJS.Signals) => {
		if (startedAt === undefined) {
			void run(signal);
			return;
		}
		if (now() - startedAt < repeatGraceMs) return;
		log.warn({ signal }, 'second signal: exiting without finishing the shutdown');
		exit(1);
	};
	for (const signal of signals) target.on(signal, onSignal);

	return {
		add: (name, close) => void steps.push({ name, close }),
		run: (reason) => (startedAt === undefined ? run(reason) : Promise.resolve()),
		dispose: () => {
			for (const signal of signals) target.off(signal, onSignal);
		},
	};
}
