/**
 * A keyed async mutex: a promise queue per key. Tasks with the same key run one at a time, in call order; a failed
 * task does not block the next. (A dozen lines, so no dependency.)
 */
export interface KeyedMutex {
	run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

export function createKeyedMutex(): KeyedMutex {
	const tails = new Map<string, Promise<void>>();
	return {
		run<T>(key: string, task: () => Promise<T>): Promise<T> {
			const result = (tails.get(key) ?? Promise.resolve()).then(task);
			const tail = result.then(
				() => undefined,
				() => undefined,
			);
			tails.set(key, tail);
			void tail.then(() => {
				if (tails.get(key) === tail) tails.delete(key);
			});
			return result;
		},
	};
}
