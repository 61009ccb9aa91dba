import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/ports.js';

/**
 * A memory store whose rating-snapshot writes wait while the gate is closed: a replay that reaches its first snapshot
 * stops there, as a long replay would still be running, for as long as a test needs (no timing involved).
 */
export interface GatedSnapshots {
	readonly store: Store;
	close(): void;
	/** Lets the waiting writes through, and the later ones. */
	open(): void;
	/** Settles once a snapshot write waits at the closed gate. */
	readonly entered: Promise<void>;
}

export function gatedSnapshots(): GatedSnapshots {
	const inner = createMemoryStore();
	let gate: Promise<void> = Promise.resolve();
	let release = () => {};
	let closed = false;
	let arrived = () => {};
	const entered = new Promise<void>((resolve) => (arrived = resolve));
	return {
		store: {
			kind: inner.kind,
			close: () => inner.close(),
			namespace(name) {
				const namespace = inner.namespace(name);
				if (name !== 'rating-snapshots') return namespace;
				return {
					...namespace,
					async set(key, value) {
						if (closed) arrived();
						await gate;
						return namespace.set(key, value);
					},
				};
			},
		},
		close() {
			closed = true;
			gate = new Promise((resolve) => (release = resolve));
		},
		open() {
			closed = false;
			release();
		},
		entered,
	};
}

/** `promise`, or a failure naming `what` after `ms`: a read that waits behind a replay fails here, not at the test's timeout. */
export function within<T>(ms: number, promise: Promise<T>, what = 'the read'): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
	});
	return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
