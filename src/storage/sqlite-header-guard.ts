import { closeSync, openSync, readSync, type Stats } from 'node:fs';
import { endianness } from 'node:os';

/**
 * Notices a SQLite database or its WAL overwritten in place (same inode, so file-guard.ts's device + inode check
 * passes) under a running process: `dd conv=notrunc` over the file, `cp backup.sqlite data/pitwall.sqlite` (cp
 * truncates and rewrites the same inode), a tool scribbling over the -wal. SQLite does not notice by itself: in WAL
 * mode its page cache stays valid as long as the WAL index (the -shm) says nothing changed, and a write appends frames
 * to the WAL using the header it keeps in memory, so the bot went on acknowledging 30 races; the damage surfaced at
 * the next checkpoint or restart (garbage pages copied into the database, or a WAL whose header no longer matches its
 * frames ignored as a whole), and the whole store was unreadable.
 *
 * Formats: https://www.sqlite.org/fileformat2.html (database header, WAL header and frames) and
 * https://www.sqlite.org/walformat.html (the -shm: two copies of the WAL index header, then the checkpoint info).
 * What is looked at, with reads (pread) on descriptors kept open, a few microseconds in all:
 *
 * - the database header (100 bytes): the magic string, the fields SQLite never changes for a database (page size,
 *   reserved space, payload fractions, schema format, text encoding, auto-vacuum and application id, the reserved
 *   zeros), and the file change counter never going down;
 * - the database file's mtime and size: in WAL mode only a checkpoint writes the database file, and a checkpoint
 *   first records in the -shm how far it goes (`nBackfillAttempted`), then copies, then records it done
 *   (`nBackfill`); the next writer restarts the WAL with new salts. So a changed mtime or size with none of those
 *   moved since the last look was not SQLite;
 * - the WAL header (32 bytes): magic, version, page size, its own checksum, and its salts equal to the -shm's copy
 *   (a random overwrite, or another WAL copied in, cannot match the 64 random bits);
 * - the last committed frame's header (24 bytes, where the -shm says the WAL ends): the same salts, the cumulative
 *   checksums and database size the -shm recorded for it: an overwrite reaching the end of the WAL, where every
 *   write appends, is caught.
 *
 * Another process's checkpoint or WAL restart can land between two of these reads; a mismatch is read again after a
 * few milliseconds (at most ~100 ms in all) and only a mismatch that stays is reported.
 *
 * Not caught per write (it would mean reading the whole files): bytes changed in the middle of the WAL away from its
 * last frame; database pages overwritten between two looks that also saw a checkpoint (which explains the new
 * mtime), or within the clock tick (a few ms) of the last look, the mtime then unchanged, unless the header changed.
 * A write that meets such a page fails (SQLITE_CORRUPT) and is not acknowledged either.
 */

export interface SqliteFilesGuard {
	/**
	 * What is wrong with the files (one phrase), or undefined when they are as SQLite left them. `statPath`: the
	 * database path's `stat` (file-guard.ts takes it anyway, for the inode), taken after the -shm is read: a
	 * checkpoint marks the -shm before it writes the database, so what is recorded never misses one.
	 */
	readonly look: (statPath: () => Stats | undefined) => Promise<string | undefined>;
	/** Closes the descriptors; only once SQLite's connection is closed (see `openKept`). */
	readonly close: () => void;
}

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const DB_HEADER = 100;
/** Two 48-byte copies of the WAL index header, then the checkpoint info up to `nBackfillAttempted` (offset 128). */
const SHM_HEADER = 136;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const WAL_VERSION = 3007000;
/** The header bytes no SQLite operation of ours changes: page size, reserved space, fractions, schema format, ... */
const FIXED: readonly (readonly [number, number])[] = [
	[16, 18], // page size
	[20, 24], // reserved bytes per page, payload fractions 64/32/32
	[44, 48], // schema format number
	[52, 60], // largest root page (auto-vacuum), text encoding
	[64, 92], // incremental vacuum, application id, reserved for expansion (zeros)
];
/** Waits before reading a mismatch again (another process may be between two writes of a checkpoint or restart). */
const RETRY_MS = [1, 5, 20, 75];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A read-only descriptor kept for the store's life. Closing any descriptor of a file drops every POSIX lock this
 * process holds on it, SQLite's included (https://www.sqlite.org/howtocorrupt.html §2.2), so these are closed only
 * after SQLite's connection.
 */
function openKept(path: string): number | undefined {
	try {
		return openSync(path, 'r');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/** What the -shm says (walformat.html §2.1): the WAL index header and the checkpoint's progress. */
interface ShmView {
	/** The two copies of the WAL index header agree and it is set up (else a writer is rewriting it). */
	readonly settled: boolean;
	readonly pageSize: number;
	/** The last committed frame (0: the WAL holds nothing yet). */
	readonly mxFrame: number;
	/** The database's size in pages after that commit. */
	readonly nPage: number;
	readonly frameChecksum1: number;
	readonly frameChecksum2: number;
	readonly salt1: number;
	readonly salt2: number;
	/** Frames copied into the database, and how far the running or last checkpoint set out to go. */
	readonly backfilled: number;
	readonly attempted: number;
}

/** Changes whenever SQLite writes the database file: a checkpoint starting or ending, a WAL restart (new salts). */
const sameCheckpoint = (a: ShmView, b: ShmView) =>
	a.salt1 === b.salt1 && a.salt2 === b.salt2 && a.backfilled === b.backfilled && a.attempted === b.attempted;

/**
 * `expectedPageSize`: `PRAGMA page_size` of the connection. The database file may be empty at first (a new store's
 * pages are all in the WAL until the first checkpoint).
 */
export function guardSqliteFiles(path: string, expectedPageSize: number): SqliteFilesGuard {
	const db = openKept(path);
	let wal = openKept(`${path}-wal`);
	const shm = openKept(`${path}-shm`);
	const dbHeader = Buffer.alloc(DB_HEADER);
	const shmHeader = Buffer.alloc(SHM_HEADER);
	const walHeader = Buffer.alloc(WAL_HEADER);
	const frameHeader = Buffer.alloc(FRAME_HEADER);
	// The -shm is in the machine's byte order (it never moves between machines); the files, big-endian.
	const le = endianness() === 'LE';
	const u32 = (buffer: Buffer, at: number) => (le ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));
	/** The FIXED fields as first seen, and the change counter last seen. */
	let fixed: Buffer | undefined;
	let changeCounter = 0;
	/** The database file and the -shm at the last sound look. */
	let seen: { mtimeMs: number; size: number; shm: ShmView | undefined } | undefined;

	const read = (fd: number, into: Buffer, position: number) => readSync(fd, into, 0, into.length, position);

	const readShm = (): ShmView | undefined => {
		if (shm === undefined || read(shm, shmHeader, 0) < SHM_HEADER) return undefined;
		const pageSize = le ? shmHeader.readUInt16LE(14) : shmHeader.readUInt16BE(14);
		return {
			settled: shmHeader[12] === 1 && shmHeader.compare(shmHeader, 0, 48, 48, 96) === 0,
			pageSize: pageSize === 1 ? 65536 : pageSize,
			mxFrame: u32(shmHeader, 16),
			nPage: u32(shmHeader, 20),
			frameChecksum1: u32(shmHeader, 24),
			frameChecksum2: u32(shmHeader, 28),
			// Copied byte for byte from the WAL header, which is big-endian.
			salt1: shmHeader.readUInt32BE(32),
			salt2: shmHeader.readUInt32BE(36),
			backfilled: u32(shmHeader, 96),
			attempted: u32(shmHeader, 128),
		};
	};

	/** The database header, read after SQLite wrote the file; undefined when sound (or not written yet). */
	const lookAtHeader = (): string | undefined => {
		if (db === undefined) return undefined;
		if (read(db, dbHeader, 0) < DB_HEADER) return undefined; // a new store's pages are still all in the WAL
		if (dbHeader.compare(MAGIC, 0, 16, 0, 16) !== 0) return 'its header is not a SQLite header any more';
		const pageSize = dbHeader.readUInt16BE(16) === 1 ? 65536 : dbHeader.readUInt16BE(16);
		if (pageSize !== expectedPageSize) return `its header says pages of ${pageSize} bytes, not ${expectedPageSize}`;
		const now = Buffer.concat(FIXED.map(([from, to]) => dbHeader.subarray(from, to)));
		if (fixed === undefined) fixed = now;
		else if (!now.equals(fixed)) return 'header fields SQLite never changes have changed';
		const counter = dbHeader.readUInt32BE(24);
		if (counter < changeCounter) return `its change counter went back from ${changeCounter} to ${counter}`;
		changeCounter = counter;
		return undefined;
	};

	/**
	 * In WAL mode only a checkpoint writes the database file, and it marks the -shm before it starts: a file written
	 * with the -shm as it was at the last look (and no checkpoint running then) was written by something else. The
	 * header is read again only after a write.
	 */
	const lookAtDatabase = (stat: Stats, view: ShmView | undefined): string | undefined => {
		const before = seen;
		if (before === undefined || before.mtimeMs !== stat.mtimeMs || before.size !== stat.size) {
			const checkpointed =
				before === undefined ||
				before.shm === undefined ||
				view === undefined ||
				before.shm.backfilled !== before.shm.attempted || // a checkpoint was running at the last look
				!sameCheckpoint(before.shm, view);
			const problem = lookAtHeader(); // the more telling of the two when both fail
			if (problem !== undefined) return problem;
			if (!checkpointed) return 'the database file was written outside a checkpoint';
		}
		seen = { mtimeMs: stat.mtimeMs, size: stat.size, shm: view };
		return undefined;
	};

	const lookAtWal = (view: ShmView | undefined): string | undefined => {
		if (view === undefined || !view.settled || view.mxFrame === 0) return undefined; // an empty WAL holds nothing
		wal ??= openKept(`${path}-wal`);
		if (wal === undefined) return 'the -wal file is missing';
		if (read(wal, walHeader, 0) < WAL_HEADER) return 'the -wal file is shorter than its header';
		const magic = walHeader.readUInt32BE(0);
		if ((magic & 0xfffffffe) !== 0x377f0682) return 'the -wal header is not a SQLite WAL header any more';
		const [s1, s2] = walChecksum(walHeader, 0, 24, 0, 0, magic & 1 ? 'readUInt32BE' : 'readUInt32LE');
		if (walHeader.readUInt32BE(24) !== s1 || walHeader.readUInt32BE(28) !== s2) {
			return 'the -wal header fails its checksum';
		}
		if (walHeader.readUInt32BE(4) !== WAL_VERSION || walHeader.readUInt32BE(8) !== view.pageSize) {
			return 'the -wal header has another version or page size';
		}
		if (walHeader.readUInt32BE(16) !== view.salt1 || walHeader.readUInt32BE(20) !== view.salt2) {
			return 'the -wal header is not the one SQLite wrote';
		}
		// The last commit's frame: its header carries the salts, the database size and the running checksum.
		const at = WAL_HEADER + (view.mxFrame - 1) * (view.pageSize + FRAME_HEADER);
		if (read(wal, frameHeader, at) < FRAME_HEADER) return 'the -wal file is shorter than SQLite wrote it';
		if (
			frameHeader.readUInt32BE(8) !== view.salt1 ||
			frameHeader.readUInt32BE(12) !== view.salt2 ||
			frameHeader.readUInt32BE(4) !== view.nPage ||
			frameHeader.readUInt32BE(16) !== view.frameChecksum1 ||
			frameHeader.readUInt32BE(20) !== view.frameChecksum2
		) {
			return 'the last frame of the -wal is not the one SQLite wrote';
		}
		return undefined;
	};

	const lookOnce = (statPath: () => Stats | undefined): string | undefined => {
		const view = readShm();
		const stat = statPath();
		if (stat === undefined) return undefined; // deleted: file-guard.ts says so
		return lookAtWal(view) ?? lookAtDatabase(stat, view);
	};

	return {
		look: async (statPath) => {
			let problem = lookOnce(statPath);
			for (const ms of RETRY_MS) {
				if (problem === undefined) return undefined;
				await sleep(ms);
				problem = lookOnce(statPath);
			}
			return problem;
		},
		close: () => {
			for (const fd of [db, wal, shm]) if (fd !== undefined) closeSync(fd);
		},
	};
}

/**
 * SQLite's WAL checksum (fileformat2.html §4.2): over 32-bit words in pairs, `s1 += x[i] + s2; s2 += x[i+1] + s1`,
 * words in the byte order the WAL's magic names.
 */
export function walChecksum(
	bytes: Buffer,
	from: number,
	to: number,
	s1: number,
	s2: number,
	word: 'readUInt32BE' | 'readUInt32LE',
): [number, number] {
	for (let i = from; i < to; i += 8) {
		s1 = (s1 + bytes[word](i) + s2) >>> 0;
		s2 = (s2 + bytes[word](i + 4) + s1) >>> 0;
	}
	return [s1, s2];
}
