/** A row of the keyv table: the full key and the keyv-serialised value. */
export interface KeyRow {
	readonly key: string;
	readonly value: string;
}

/**
 * Every row of a keyv table in key order, by pages (keyset pagination: `key > last`), so a store of 15 MB
 * snapshots is never read in one result (migrate). `page(after, limit)` reads the next rows after the
 * key `after` (`''`: from the start).
 */
export async function* scanByKey(
	page: (after: string, limit: number) => Promise<readonly KeyRow[]>,
	limit = 64,
): AsyncIterable<readonly [string, string]> {
	let after = '';
	for (;;) {
		const rows = await page(after, limit);
		for (const row of rows) yield [row.key, row.value];
		if (rows.length < limit) return;
		after = rows[rows.length - 1]!.key;
	}
}
