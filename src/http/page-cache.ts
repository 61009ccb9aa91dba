/**
 * Rendered answers of the league pages and API, kept by address and version (the ETag: the league's log seq, the day
 * its standings are grown to, the kind of answer). The same version of a page is the same text: a race, an edit, a
 * setting or a new day makes a new ETag, so an entry is never stale, only unused; the least recently used go first
 * once the kept text passes `maxChars`. A player page of a big league is some tens of kB: the default keeps a few
 * thousand pages.
 */
export interface PageCache {
	/** The kept text of `key`, or `render()`'s, kept; two requests for a page being rendered share the one rendering. */
	get(key: string, render: () => Promise<string>): Promise<string>;
	/** Answers kept and their total length (tests, the benchmark). */
	size(): { readonly pages: number; readonly chars: number };
}

export function createPageCache(maxChars = 64 * 1024 * 1024): PageCache {
	const pages = new Map<string, string>();
	const rendering = new Map<string, Promise<string>>();
	let chars = 0;
	const keep = (key: string, text: string) => {
		pages.set(key, text);
		chars += text.length;
		for (const [old, kept] of pages) {
			if (chars <= maxChars) break;
			pages.delete(old);
			chars -= kept.length;
		}
	};
	return {
		get(key, render) {
			const kept = pages.get(key);
			if (kept !== undefined) {
				pages.delete(key); // the map's order is the order of use, least recent first
				pages.set(key, kept);
				return Promise.resolve(kept);
			}
			const running = rendering.get(key);
			if (running !== undefined) return running;
			const started = render().then(
				(text) => {
					rendering.delete(key);
					keep(key, text);
					return text;
				},
				(error: unknown) => {
					rendering.delete(key);
					throw error;
				},
			);
			rendering.set(key, started);
			return started;
		},
		size: () => ({ pages: pages.size, chars }),
	};
}
