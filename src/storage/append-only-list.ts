import { guildToDomain } from './records.js';
import type { KeyValueNamespace } from './ports.js';

/**
 * A list of ids that several processes append to at once (a server's leagues, the servers with
 * leagues). One key per entry, `<list>:<n>`, n contiguous from 0, each claimed with the store's atomic
 * insert-if-absent: an append that finds its slot taken moves to the next one, so no append is lost, unlike a
 * read-modify-write of one list value (9 of 80 concurrent creates vanished). A list written by older versions as one
 * value under `<list>` is read first, and never written again.
 *
 * An id may appear twice (two processes repairing the same missing entry); `read` returns each id once, in order.
 * Entries are records of the guild shape (`{ v: 1, leagues: [id] }`), so records.ts checks them as it did the list.
 */
export interface AppendOnlyList {
	read(list: string): Promise<string[]>;
	/** Append `id` unless the list already holds it. Appends to one list are serialised by the caller in process. */
	appendOnce(list: string, id: string): Promise<void>;
}

const slotKey = (list: string, n: number) => `${list}:${n}`;

export function createAppendOnlyList(ns: KeyValueNamespace): AppendOnlyList {
	/** The first free slot seen per list: where the next append tries first. */
	const next = new Map<string, number>();

	const read = async (list: string): Promise<string[]> => {
		const ids = new Set(guildToDomain(await ns.get(list), `list ${list}`));
		let n = 0;
		for (let batch = 8; ; batch = 64) {
			const raws = await ns.getMany(Array.from({ length: batch }, (_, i) => slotKey(list, n + i)));
			for (const raw of raws) {
				if (raw === undefined) {
					next.set(list, n);
					return [...ids];
				}
				for (const id of guildToDomain(raw, `list ${slotKey(list, n)}`)) ids.add(id);
				n++;
			}
		}
	};

	return {
		read,
		async appendOnce(list, id) {
			if ((await read(list)).includes(id)) return;
			// Slots are only ever added, so each failed claim means another process appended: bounded by their number.
			for (let n = next.get(list) ?? 0; ; n++) {
				if (await ns.add(slotKey(list, n), { v: 1, leagues: [id] })) {
					next.set(list, n + 1);
					return;
				}
			}
		},
	};
}
